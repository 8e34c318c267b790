import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { COMMUNITY_COLOURS, LINE_COLOURS } from "./palette.ts";

describe("palette", () => {
  // Tooltip swatches are classes (the CSP forbids inline styles): each must paint its palette colour.
  test("the stylesheet's .c0… and .l0… swatches are the palettes' colours, in order", async () => {
    const css = await Bun.file(join(import.meta.dir, "styles.css")).text();
    const colourOf = (cls: string) => css.match(new RegExp(`\\.${cls} \\{\\s*background: (#[0-9a-f]{6});`))?.[1];
    expect(COMMUNITY_COLOURS.map((_, i) => colourOf(`c${i}`))).toEqual(COMMUNITY_COLOURS);
    expect(LINE_COLOURS.map((_, i) => colourOf(`l${i}`))).toEqual(LINE_COLOURS);
  });
});
