// Runs autocannon (under node) with a different bearer token per request, round-robin, so a
// load test spreads over many users as real traffic does. Prints autocannon's JSON result.
// Usage: node bench/autocannon-tokens.mjs URL TOKENS.json RATE SECONDS CONNECTIONS
import autocannon from "autocannon";
import { readFileSync } from "node:fs";

const [url, tokensFile, rate, seconds, connections] = process.argv.slice(2);
const tokens = JSON.parse(readFileSync(tokensFile, "utf8")).map((t) => t.token);
let next = 0;
const result = await autocannon({
  url,
  overallRate: Number(rate),
  duration: Number(seconds),
  connections: Number(connections),
  requests: [
    {
      setupRequest(req) {
        req.headers = { ...req.headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` };
        return req;
      },
    },
  ],
});
console.log(JSON.stringify(result));
