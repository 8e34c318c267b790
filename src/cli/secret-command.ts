/**
 * `secret show`: prints the signing secret `serve` generated and keeps in the database (settings
 * jwt_secret) when it runs without --jwt-secret, so an operator can hand it to the conformance kit
 * (`--secret`) without opening the database by hand. With GRAPH_STATS_JWT_SECRET (or --jwt-secret)
 * that setting is the secret, and nothing of it is stored: the command says so and exits 1.
 */
import { storedSecret } from "../auth/secret.ts";
import { UsageError, type ParsedArgs } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";

export async function secretCommand(args: ParsedArgs): Promise<number> {
  if (args.positionals[0] !== "show") throw new UsageError("usage: graph-stats secret show");
  const stores = await openCommandStores(args);
  try {
    const secret = await storedSecret(stores.auth);
    if (secret === null) {
      console.error(
        "no generated secret is stored in this database: the server signs with the secret it is given " +
          "(GRAPH_STATS_JWT_SECRET or --jwt-secret); use that one",
      );
      return 1;
    }
    console.log(secret);
    return 0;
  } finally {
    await stores.close();
  }
}
