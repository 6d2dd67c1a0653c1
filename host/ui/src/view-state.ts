// The view in the URL's fragment, so that a copied link shows the same
// picture: the selected node, the visible overlays in their order, the
// focused directory and the camera. The fragment never reaches the server.
import { type OverlayRef, overlayKey, parseOverlayKey } from './overlay-composition.js';

export interface ViewState {
  node?: string;
  overlays: OverlayRef[];
  focus?: string;
  camera?: { x: number; y: number; ratio: number };
}

export function readViewState(hash: string = location.hash): ViewState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const camera = params.get('camera')?.split(',').map(Number);
  return {
    node: params.get('node') ?? undefined,
    overlays: (params.get('overlays') ?? '')
      .split(',')
      .filter(Boolean)
      .map(parseOverlayKey)
      .filter((ref): ref is OverlayRef => ref !== undefined),
    focus: params.get('focus') ?? undefined,
    camera: camera && camera.length === 3 && camera.every(Number.isFinite) && camera[2]! > 0 ? { x: camera[0]!, y: camera[1]!, ratio: camera[2]! } : undefined,
  };
}

export function writeViewState(state: ViewState): void {
  const params = new URLSearchParams();
  if (state.node) params.set('node', state.node);
  if (state.overlays.length > 0) params.set('overlays', state.overlays.map(overlayKey).join(','));
  if (state.focus) params.set('focus', state.focus);
  if (state.camera) params.set('camera', [state.camera.x, state.camera.y, state.camera.ratio].map((value) => +value.toFixed(5)).join(','));
  const hash = params.toString();
  const url = `${location.pathname}${location.search}${hash ? `#${hash}` : ''}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', url);
}
