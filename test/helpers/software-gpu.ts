import { existsSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumPath } from './browser.ts';

/**
 * The environment under which Dawn (the layout's WebGPU backend) finds a GPU adapter on a machine without one:
 * SwiftShader's Vulkan driver and the Vulkan loader that Debian's Chromium ships (/usr/lib/chromium), the same
 * package the browser tests drive. A process must start with it: the loader's folder is read from LD_LIBRARY_PATH
 * when a process starts.
 */
export function softwareVulkanEnv(): Record<string, string> {
  const folders = ['/usr/lib/chromium'];
  try {
    folders.push(path.dirname(realpathSync(chromiumPath())));
  } catch {
    // No chromium on the PATH: only the usual folder.
  }
  const folder = folders.find((candidate) => existsSync(path.join(candidate, 'vk_swiftshader_icd.json')) && existsSync(path.join(candidate, 'libvulkan.so.1')));
  if (!folder) throw new Error(`no SwiftShader Vulkan driver found in ${folders.join(', ')}: install Debian's chromium (apt-get install -y chromium)`);
  const icd = path.join(folder, 'vk_swiftshader_icd.json');
  return {
    LD_LIBRARY_PATH: [folder, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
    // VK_DRIVER_FILES is the name newer Vulkan loaders read; VK_ICD_FILENAMES the older one.
    VK_DRIVER_FILES: icd,
    VK_ICD_FILENAMES: icd,
    XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? tmpdir(),
  };
}
