/** What a check is: its own file because it names Context, which itself needs the kit's plain types. */
import type { Context } from "./context.ts";
import type { Profile } from "./types.ts";

/** A check: stable id, the section it enforces, and the profile it belongs to. */
export interface Check {
  id: string;
  title: string;
  /** The docs/api.md sections it enforces, e.g. "docs/api.md § Metering, § Headers". */
  cites: string;
  profile: Profile;
  run(ctx: Context): Promise<void>;
}
