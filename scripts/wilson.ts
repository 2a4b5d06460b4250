// The lower end of the Wilson score interval: how low a share measured as k of n may really be.
// The gates of smart replies are chosen so that this bound of their validation precision, not the
// share itself, reaches the target: a gate chosen where the measured share just touches 95 % sits at
// the edge, and on held-out data (issue 36) it fell 4 to 11 points below. With few replies the bound
// is far below the share (60 of 60 right: 94.0 %), so a source with few trials must be right nearly
// always to count as meeting a target; with thousands it is close to the share.

/** z = 1.96: a two-sided 95 % interval. With n = 0 nothing was claimed, so nothing is wrong: 1. */
export function wilsonLower(k: number, n: number, z = 1.96): number {
  if (n === 0) return 1;
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return (centre - spread) / (1 + z2 / n);
}
