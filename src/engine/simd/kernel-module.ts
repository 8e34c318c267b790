/**
 * What the SIMD kernels (dot-kernel.ts, tridiagonal-kernel.ts) share: instantiating a module from
 * its base64 bytes, null where WebAssembly SIMD is unavailable so the JavaScript loops run; and
 * growing its memory to a workspace, bounded, since WebAssembly memory never shrinks.
 */

/** The module's exports, or null where it does not validate or instantiate here. */
export function instantiateKernel<T>(base64: string): T | null {
  try {
    const bytes = Buffer.from(base64, "base64");
    if (!WebAssembly.validate(bytes)) return null;
    return new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as T;
  } catch {
    return null;
  }
}

/** Whether `memory` holds `bytes` (≤ `max`), growing it if need be; false when it cannot. */
export function ensureKernelMemory(memory: WebAssembly.Memory, bytes: number, max: number): boolean {
  if (bytes > max) return false;
  if (memory.buffer.byteLength >= bytes) return true;
  try {
    memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
    return true;
  } catch {
    return false; // no memory to grow into: the JavaScript loops need none of it
  }
}
