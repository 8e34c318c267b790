import { expect, test } from "bun:test";
import { CORRELATION_KERNEL_WASM } from "./correlation-kernel.wasm.ts";
import { compileKernel, moduleSource } from "./generate-kernel.ts";

test("the committed kernel bytes are correlation-kernel.wat compiled by wabt (npm run build:kernel)", async () => {
  const bytes = await compileKernel();
  expect(Buffer.from(CORRELATION_KERNEL_WASM, "base64").equals(Buffer.from(bytes))).toBe(true);
  expect(moduleSource(bytes)).toContain(CORRELATION_KERNEL_WASM);
  expect(WebAssembly.validate(bytes)).toBe(true);
});
