import { expect, test } from "bun:test";
import { queryFromBody, readBody } from "./request-body.ts";

const post = (
  body: ConstructorParameters<typeof Request>[1] extends infer I ? (I extends { body?: infer B } ? B : never) : never,
  headers: Record<string, string> = {},
) => new Request("http://x/", { method: "POST", body, headers });

test("a body within 8 KiB is read whole", async () => {
  expect(await readBody(post("csrf=abc"))).toBe("csrf=abc");
});

test("a body over 8 KiB is refused, declared or streamed without a length", async () => {
  await expect(readBody(post("x".repeat(9000), { "Content-Length": "9000" }))).rejects.toThrow("at most 8192");
  await expect(readBody(post("x".repeat(9000)))).rejects.toThrow("over 8192");
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      sent++;
      if (sent > 100) c.close();
      else c.enqueue(new Uint8Array(1024));
    },
  });
  await expect(readBody(new Request("http://x/", { method: "POST", body: stream }))).rejects.toThrow("over 8192");
  expect(sent).toBeLessThan(20); // it stopped reading, it did not buffer the rest
});

test.each([
  ['{"params":{"lookback":60,"graph_method":"knn","include_graph":false}}', "lookback=60&graph_method=knn&include_graph=false"],
  ['{"params":{"symbols":"M&M,TCS","universe":""}}', "symbols=M%26M%2CTCS"],
])("query body %s → %s", (json, query) => {
  expect(queryFromBody(json)).toBe(query);
});

test.each(["not json", "[]", '{"params":[1]}', '{"params":{"a":{"b":1}}}'])("a malformed query body is a 400: %s", (json) => {
  expect(() => queryFromBody(json)).toThrow();
});
