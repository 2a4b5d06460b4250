// The Wilson score interval (95 %): how low, or how high, a share measured as k of n may really be.
// The gates of smart replies are chosen so that the bounds of their validation figures, not the
// shares themselves, reach the targets: a gate chosen where the measured share just touches 95 % sits
// at the edge, and on held-out data (issue 36) it fell 4 to 11 points below. With few trials the
// bounds are far from the share (60 of 60 right: lower bound 94.0 %; 0 of 140 unanswerable questions
// sent: upper bound 2.7 %), so a source with few trials must be right nearly always, and send nearly
// nothing it should not, to count as meeting a target; with thousands they are close to the share.

/** z = 1.96: a two-sided 95 % interval. With n = 0 nothing was claimed, so nothing is wrong: 1. */
export function wilsonLower(k: number, n: number, z = 1.96): number {
  if (n === 0) return 1;
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return (centre - spread) / (1 + z2 / n);
}

/**
 * The upper end of the same interval: the interval is symmetric in k and n − k, so it is 1 less the
 * lower end of the other share. With n = 0 nothing was tried, so nothing was sent wrongly: 0.
 * At k = 0 it is z² / (n + z²), about 3.84 / (n + 3.84): the least upper bound n trials can give.
 */
export function wilsonUpper(k: number, n: number, z = 1.96): number {
  return n === 0 ? 0 : 1 - wilsonLower(n - k, n, z);
}
