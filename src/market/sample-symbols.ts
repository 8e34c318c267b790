/**
 * The synthetic sample's made-up companies. None of these is a real listing: the names are
 * invented so the out-of-the-box data can never be mistaken for market data.
 */
export interface SampleSector {
  sector: string;
  symbols: string[];
}

export const SAMPLE_SECTORS: readonly SampleSector[] = [
  { sector: "banks", symbols: ["ALPHABANK", "BETABANK", "GAMMABANK", "DELTAFIN", "SIGMAFIN", "OMEGACAP", "KAPPALEND"] },
  { sector: "it", symbols: ["CODEWAVE", "BYTEFORGE", "CLOUDNINE", "DATAMINT", "LOGICORE", "NETSPHERE", "PIXELSOFT"] },
  { sector: "energy", symbols: ["SUNVOLT", "GRIDPOWER", "PETROLUX", "WINDMILL", "COALSTAR", "NOVAGRID"] },
  { sector: "pharma", symbols: ["MEDIVA", "CUREWELL", "PHARMAX", "BIOGENIX", "HEALWAY", "VITACARE"] },
  { sector: "auto", symbols: ["MOTORIA", "WHEELCO", "AUTOVEX", "TORQUEMAX", "GEARSHIFT", "CRUISELINE"] },
  { sector: "fmcg", symbols: ["FRESHCO", "DAILYNEEDS", "SPICEHUB", "TEALEAF", "SOAPWORKS", "SNACKIT"] },
  { sector: "metals", symbols: ["STEELCORE", "ALUMINEX", "COPPERTON", "IRONCLAD", "ZINCWORKS", "NICKELIA"] },
  { sector: "infra", symbols: ["CEMENTA", "BUILDWELL", "ROADWAYS", "PORTLINK", "SKYRAIL", "CONCRETO"] },
];

/** A late listing, so the sample also exercises symbols without full history (like a real IPO). */
export const SAMPLE_LATE_LISTING = { symbol: "NOVAGRID", date: "2024-03-01" } as const;
