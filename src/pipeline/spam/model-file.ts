// The committed classifier file (model.json): a logistic regression over hashed features,
// stored sparsely (only kept buckets) and compactly (16-bit weights, varint index gaps, base64),
// and how common each content feature is in ordinary legitimate text (the owner's adaptive layer's prior).

export const MODEL_FORMAT = 'intake-spam-logistic/4';

export interface SpamModelFile {
  format: typeof MODEL_FORMAT;
  hashBits: number;
  /** How both strategies turn scores into verdicts; chosen on the validation parts, never the held-out ones. */
  decision: {
    /** `standard`: spam when the heuristics' summed weights reach this (also the bar form signals must clear under `intelligent`). */
    standardThreshold: number;
    /** Log-odds added per point of the text heuristics' weight (phrases, promotion, claims, bait). */
    phraseWeight: number;
    /** Log-odds added per point of the form signals' score (the heuristics the classifier cannot see). */
    formWeight: number;
    /** Spam when the score, logit(probability) + phraseWeight × phrase score + formWeight × form score, reaches this. */
    thresholdLogit: number;
    /** The score as a probability: sigmoid(slope × score + intercept), fitted on held-out scores (Platt scaling). */
    calibration: { slope: number; intercept: number };
    /**
     * The thresholds of the other sensitivities a form may choose (`spam_sensitivity`), chosen on the same
     * validation parts with another cost of a false positive; the ones above are `balanced`'s. Weights stay.
     */
    sensitivities?: Partial<Record<'low' | 'high', OperatingPoint>>;
  };
  weights: EncodedWeights;
  /** In what share of legitimate training messages each content feature appears (the common ones only). */
  background: EncodedBackground;
  /** How the file was made: corpus, split, hyper-parameters, validation figures. For people; ignored by code. */
  training: Record<string, unknown>;
}

/** Where the two strategies call a submission spam. */
export interface OperatingPoint {
  standardThreshold: number;
  thresholdLogit: number;
}

export interface EncodedWeights {
  /** Multiply a stored 16-bit value by this to get the weight. */
  scale: number;
  /** Base64 of the gaps between kept bucket numbers, as unsigned LEB128 varints. */
  buckets: string;
  /** Base64 of the kept weights as little-endian int16. */
  values: string;
}

export interface EncodedBackground {
  /** The share assumed for a feature not listed: below the listing threshold. */
  floor: number;
  /** Base64 of the gaps between listed bucket numbers, as unsigned LEB128 varints. */
  buckets: string;
  /** Base64 of one byte per listed bucket: the share is 2^(-byte / BACKGROUND_STEPS). */
  shares: string;
}

const BACKGROUND_STEPS = 16;

/** Shares at or above `floor`, one byte each (a step is 2^(1/16), about 4 %). */
export function encodeBackground(shares: ArrayLike<number>, floor: number): EncodedBackground {
  const listed = Array.from({ length: shares.length }, (_, index) => index).filter((index) => shares[index]! >= floor);
  const bytes = Buffer.from(listed.map((index) => Math.min(255, Math.round(-Math.log2(Math.min(1, shares[index]!)) * BACKGROUND_STEPS))));
  return { floor, buckets: encodeGaps(listed), shares: bytes.toString('base64') };
}

/** Per bucket, the share of legitimate messages with the feature; `floor` where none is listed. */
export function decodeBackground(encoded: EncodedBackground, size: number): Float32Array {
  const shares = new Float32Array(size).fill(encoded.floor);
  const bytes = Buffer.from(encoded.shares, 'base64');
  decodeGaps(encoded.buckets, bytes.length, size).forEach((bucket, position) => {
    shares[bucket] = 2 ** (-bytes[position]! / BACKGROUND_STEPS);
  });
  return shares;
}

/** Keeps the `keep` largest weights by magnitude; the rest are treated as zero. */
export function encodeWeights(weights: ArrayLike<number>, keep: number): EncodedWeights {
  const order = Array.from({ length: weights.length }, (_, index) => index)
    .filter((index) => weights[index] !== 0)
    .sort((a, b) => Math.abs(weights[b]!) - Math.abs(weights[a]!) || a - b)
    .slice(0, keep)
    .sort((a, b) => a - b);
  const largest = order.reduce((max, index) => Math.max(max, Math.abs(weights[index]!)), 0);
  const scale = largest > 0 ? largest / 32767 : 1;
  const values = Buffer.alloc(order.length * 2);
  order.forEach((bucket, position) => values.writeInt16LE(Math.round(weights[bucket]! / scale), position * 2));
  return { scale, buckets: encodeGaps(order), values: values.toString('base64') };
}

export function decodeWeights(encoded: EncodedWeights, size: number): Float32Array {
  const weights = new Float32Array(size);
  const values = Buffer.from(encoded.values, 'base64');
  decodeGaps(encoded.buckets, values.length / 2, size).forEach((bucket, position) => {
    weights[bucket] = values.readInt16LE(position * 2) * encoded.scale;
  });
  return weights;
}

/** Ascending bucket numbers as base64 of the gaps between them, unsigned LEB128 varints. */
function encodeGaps(buckets: readonly number[]): string {
  const gaps: number[] = [];
  let previous = 0;
  for (const bucket of buckets) {
    pushVarint(gaps, bucket - previous);
    previous = bucket;
  }
  return Buffer.from(gaps).toString('base64');
}

function decodeGaps(encoded: string, count: number, size: number): number[] {
  const gaps = Buffer.from(encoded, 'base64');
  const buckets: number[] = [];
  let bucket = 0;
  let offset = 0;
  for (let position = 0; position < count; position++) {
    let gap = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = gaps[offset++] ?? 0;
      gap |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    bucket += gap;
    if (bucket >= size) throw new Error('spam model: bucket out of range');
    buckets.push(bucket);
  }
  return buckets;
}

function pushVarint(bytes: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
}
