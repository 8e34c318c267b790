/** The service's version, from package.json (compiled into the binary). */
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;
