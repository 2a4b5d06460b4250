// The committed classifier file (model.json): a logistic regression over hashed features,
// stored sparsely (only kept buckets) and compactly (16-bit weights, varint index gaps, base64).

export const MODEL_FORMAT = 'intake-spam-logistic/2';

export interface SpamModelFile {
  format: typeof MODEL_FORMAT;
  hashBits: number;
  /** How `intelligent` turns the classifier into a verdict; chosen on validation data, never the test split. */
  decision: {
    /** Log-odds added per point of the text heuristics' weight (phrases, promotion, claims, bait). */
    phraseWeight: number;
    /** Log-odds added per point of the form signals' score (the heuristics the classifier cannot see). */
    formWeight: number;
    /** Spam when the score, logit(probability) + phraseWeight × phrase score + formWeight × form score, reaches this. */
    thresholdLogit: number;
    /** The score as a probability: sigmoid(slope × score + intercept), fitted on held-out scores (Platt scaling). */
    calibration: { slope: number; intercept: number };
  };
  weights: EncodedWeights;
  /** How the file was made: corpus, split, hyper-parameters, validation figures. For people; ignored by code. */
  training: Record<string, unknown>;
}

export interface EncodedWeights {
  /** Multiply a stored 16-bit value by this to get the weight. */
  scale: number;
  /** Base64 of the gaps between kept bucket numbers, as unsigned LEB128 varints. */
  buckets: string;
  /** Base64 of the kept weights as little-endian int16. */
  values: string;
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
  const gaps: number[] = [];
  const values = Buffer.alloc(order.length * 2);
  let previous = 0;
  order.forEach((bucket, position) => {
    pushVarint(gaps, bucket - previous);
    previous = bucket;
    values.writeInt16LE(Math.round(weights[bucket]! / scale), position * 2);
  });
  return { scale, buckets: Buffer.from(gaps).toString('base64'), values: values.toString('base64') };
}

export function decodeWeights(encoded: EncodedWeights, size: number): Float32Array {
  const weights = new Float32Array(size);
  const gaps = Buffer.from(encoded.buckets, 'base64');
  const values = Buffer.from(encoded.values, 'base64');
  let bucket = 0;
  let offset = 0;
  for (let position = 0; position * 2 < values.length; position++) {
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
    weights[bucket] = values.readInt16LE(position * 2) * encoded.scale;
  }
  return weights;
}

function pushVarint(bytes: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
}
