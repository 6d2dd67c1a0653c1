/**
 * The WebGPU backend's device: Dawn for Node (the `webgpu` package, prebuilt
 * for Linux, macOS and Windows, installed from npm like the rest) gives
 * TensorFlow.js's WebGPU backend a `navigator.gpu`. On Linux Dawn reaches the
 * GPU through Vulkan: the system's Vulkan loader (libvulkan.so.1, installed
 * with a GPU's driver) and the driver it names. Without a GPU, a software
 * Vulkan driver (SwiftShader, lavapipe) may still give an adapter: it computes
 * on the CPU, is told apart here, and is used only when asked for by name.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

/**
 * Whether the Vulkan loader can be found (Dawn prints a warning to the process's stderr when it cannot): in
 * LD_LIBRARY_PATH, or in the dynamic linker's cache as `ldconfig -p` lists it. Where ldconfig cannot be run, Dawn
 * is tried.
 */
function hasVulkanLoader(): boolean {
  const folders = (process.env.LD_LIBRARY_PATH ?? '').split(':').filter((folder) => folder);
  if (folders.some((folder) => existsSync(path.join(folder, 'libvulkan.so.1')))) return true;
  for (const ldconfig of ['/sbin/ldconfig', '/usr/sbin/ldconfig', 'ldconfig']) {
    try {
      return /\blibvulkan\.so\.1\b/.test(execFileSync(ldconfig, ['-p'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }));
    } catch {
      // Not there: the next one.
    }
  }
  return true;
}
