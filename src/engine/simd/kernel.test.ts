import { expect, test } from "bun:test";
import { join } from "node:path";
import { compileKernel, KERNELS, moduleSource } from "./generate-kernel.ts";

for (const k of KERNELS) {
  test(`the committed ${k.module} is ${k.wat} compiled by wabt (npm run build:kernel)`, async () => {
    const bytes = await compileKernel(k);
    const committed = await Bun.file(join(import.meta.dir, k.module)).text();
    expect(committed).toBe(moduleSource(k, bytes));
    expect(WebAssembly.validate(bytes)).toBe(true);
  });
}
