/** What a check is: its own file because it names Context, which itself needs the kit's plain types. */
import type { Context } from "./context.ts";
import type { Profile } from "./types.ts";

/** A check: stable id, the section it enforces, and the profile it belongs to. */
export interface Check {
  id: string;
  title: string;
  /** Spec section, e.g. "interface-spec §8" or "DECISIONS §6". */
  cites: string;
  profile: Profile;
  run(ctx: Context): Promise<void>;
}
