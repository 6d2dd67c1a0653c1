/**
 * The WebGPU backend's device: Dawn for Node (the `webgpu` package, prebuilt
 * for Linux, macOS and Windows, installed from npm like the rest) gives
 * TensorFlow.js's WebGPU backend a `navigator.gpu`. On Linux Dawn reaches the
 * GPU through Vulkan: the system's Vulkan loader (libvulkan.so.1, installed
 * with a GPU's driver) and the driver it names. Without a GPU, a software
 * Vulkan driver (SwiftShader, lavapipe) may still give an adapter: it computes
 * on the CPU, is told apart here, and is used only when asked for by name.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The adapter Dawn found, as the layout reports it. */
export interface WebGpuAdapter {
  /** False for a software adapter (SwiftShader, lavapipe, llvmpipe, or any Dawn calls a fallback). */
  hardware: boolean;
  /** What the adapter says of itself: vendor, architecture, device, description. */
  description: string;
}

/** What is read of Dawn's `GPU` (its types are WebGPU's, which this package does not make global). */
interface DawnGpu {
  requestAdapter(options: { powerPreference: 'high-performance' }): Promise<{
    info: { vendor: string; architecture: string; device: string; description: string; isFallbackAdapter?: boolean };
  } | null>;
}

/** Names of the software Vulkan and WebGPU implementations (they run on the CPU). */
const SOFTWARE = /swiftshader|lavapipe|llvmpipe|softpipe|software|warp|\bcpu\b/i;

/** Dawn is opened once a process: a second instance aborted the process (a failed assertion in pthreads). */
let opened: Promise<WebGpuAdapter | undefined> | undefined;

/**
 * Defines `navigator.gpu` (and the WebGPU constants the backend reads, such
 * as `GPUBufferUsage`) from Dawn, and asks for an adapter, once a process.
 * Undefined when there is none: no Vulkan loader on Linux, or no driver.
 */
export function openWebGpu(): Promise<WebGpuAdapter | undefined> {
  opened ??= openDawn();
  return opened;
}

async function openDawn(): Promise<WebGpuAdapter | undefined> {
  if (process.platform === 'linux' && !hasVulkanLoader()) return undefined;
  const dawn = (await import('webgpu')) as unknown as { create(flags: string[]): DawnGpu; globals: Record<string, unknown> };
  const gpu = dawn.create([]);
  for (const [name, value] of Object.entries(dawn.globals)) {
    if (!(name in globalThis)) Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
  // Node's `navigator` has only getters: the property is defined, not assigned.
  Object.defineProperty(globalThis.navigator, 'gpu', { value: gpu, configurable: true });
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) return undefined;
  const info = adapter.info;
  const said = [info.vendor, info.architecture, info.device, info.description].filter((part) => part).join(' ');
  const hardware = !info.isFallbackAdapter && !SOFTWARE.test(said);
  return { hardware, description: said || 'unnamed adapter' };
}

/** Folders where the dynamic linker looks for libraries, in its order (LD_LIBRARY_PATH, ld.so.conf, the defaults). */
function libraryFolders(): string[] {
  const folders = (process.env.LD_LIBRARY_PATH ?? '').split(':').filter((folder) => folder);
  const readConf = (file: string, depth: number): void => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    for (const raw of text.split('\n')) {
      const line = raw.replace(/#.*/, '').trim();
      if (!line) continue;
      const include = /^include\s+(.+)$/.exec(line);
      if (!include) {
        folders.push(line);
        continue;
      }
      if (depth > 3) continue;
      // `include /etc/ld.so.conf.d/*.conf`: the folder's .conf files.
      const pattern = include[1]!;
      const folder = path.dirname(pattern);
      const suffix = path.basename(pattern).replace(/^\*/, '');
      let names: string[] = [];
      try {
        names = readdirSync(folder).filter((name) => name.endsWith(suffix));
      } catch {
        // No such folder.
      }
      for (const name of names.sort()) readConf(path.join(folder, name), depth + 1);
    }
  };
  readConf('/etc/ld.so.conf', 0);
  folders.push('/lib', '/usr/lib', '/lib64', '/usr/lib64');
  return folders;
}

/** Whether the Vulkan loader can be found: Dawn prints a warning to the process's stderr when it cannot. */
function hasVulkanLoader(): boolean {
  return libraryFolders().some((folder) => existsSync(path.join(folder, 'libvulkan.so.1')));
}
