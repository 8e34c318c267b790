/**
 * A long-running Python reference process answering one JSON line per request line, so a bench
 * can alternate our runs with its runs (the machine's speed drifts within seconds).
 */
export class PythonSide {
  private proc: ReturnType<typeof Bun.spawn<"pipe", "pipe", "pipe">>;
  private reader: { read(): Promise<{ value?: Uint8Array; done?: boolean }> };
  private buffered = "";

  constructor(
    args: string[],
    private readonly hint: string,
  ) {
    this.proc = Bun.spawn(["/usr/bin/python3", ...args], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    this.reader = this.proc.stdout.getReader();
  }

  async line<T>(): Promise<T> {
    for (;;) {
      const nl = this.buffered.indexOf("\n");
      if (nl >= 0) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        return JSON.parse(line) as T;
      }
      const { value, done } = await this.reader.read();
      if (done) {
        const err = await new Response(this.proc.stderr).text();
        throw new Error(`${this.hint}: ${err.slice(-500)}`);
      }
      this.buffered += new TextDecoder().decode(value);
    }
  }

  /** Sends one request line and returns its times in ms. */
  async times(request: string): Promise<number[]> {
    this.proc.stdin.write(`${request}\n`);
    this.proc.stdin.flush();
    return (await this.line<{ times_ms: number[] }>()).times_ms;
  }

  close(): void {
    this.proc.stdin.end();
  }
}
