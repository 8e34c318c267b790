import { expect, test } from "bun:test";
import { SAMPLE_END_DATE } from "../market/sample-generator.ts";
import { sampleSeriesInput } from "../market/sample-series.ts";
import { DemoService } from "./demo-service.ts";

test("warm() computes the snapshot once; later requests reuse it without generating the sample again", () => {
  let generated = 0;
  const demo = new DemoService(() => {
    generated++;
    return sampleSeriesInput();
  }, SAMPLE_END_DATE);
  demo.warm();
  expect(generated).toBe(1);
  const first = demo.payload(null);
  expect(demo.payload("1")).toBe(first);
  expect(demo.payload("abc")).toBe(first);
  expect(generated).toBe(1);
  expect(JSON.parse(first.dataJson).type).toBe("snapshot");
});
