export interface SourcePiece {
  raw: bigint;
  usd: bigint;
}

/**
 * Turns the USD assigned to one source's targets into raw amounts: each piece gets floor(amount × usd piece /
 * source usd) and the source's last piece gets the rest, so the pieces sum exactly to `amount`. A piece that
 * floors to zero raw stays zero (the caller drops it) and its share lands in the last piece, which is always
 * ≥ 1 because it is at least amount × (its usd) / (source usd) > 0.
 *
 * Each piece's USD is then re-derived from its raw amount the same way (floor, remainder to the last), so a
 * slice's USD value always prices its own raw amount and the pieces sum exactly to the source's USD value.
 */
export function splitSource(amount: bigint, sourceUsd: bigint, usdPieces: readonly bigint[]): SourcePiece[] {
  const last = usdPieces.findLastIndex((usd) => usd > 0n);
  let rawLeft = amount;
  let usdLeft = sourceUsd;
  const pieces = usdPieces.map((usd): SourcePiece => {
    if (usd === 0n) return { raw: 0n, usd: 0n };
    const raw = (amount * usd) / sourceUsd;
    const pieceUsd = (sourceUsd * raw) / amount;
    rawLeft -= raw;
    usdLeft -= pieceUsd;
    return { raw, usd: pieceUsd };
  });
  if (last >= 0) pieces[last] = { raw: pieces[last].raw + rawLeft, usd: pieces[last].usd + usdLeft };
  return pieces;
}
