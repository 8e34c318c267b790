import { expect, test } from "bun:test";
import { redactQuery } from "./redact-query.ts";

test("credential values are replaced, whatever the case or escaping of their names", () => {
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln";
  expect(redactQuery(`lookback=20&access_token=${jwt}&symbols=A,B`)).toBe("lookback=20&access_token=[redacted]&symbols=A,B");
  for (const name of ["token", "JWT", "Api_Key", "apikey", "api-key", "KEY", "password", "Secret", "Authorization", "access%5Ftoken"]) {
    expect(redactQuery(`${name}=s3cr3t&x=1`)).toBe(`${name}=[redacted]&x=1`);
  }
});

test("other parameters, empty values and names without a value are kept byte for byte", () => {
  expect(redactQuery("")).toBe("");
  expect(redactQuery("lookback=20&method=spearman&keyword=x&tokens=2")).toBe("lookback=20&method=spearman&keyword=x&tokens=2");
  expect(redactQuery("token&a=%zz&token=")).toBe("token&a=%zz&token=[redacted]");
});
