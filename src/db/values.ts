// Normalises what the two engines return into one shape for the read models.

export function toIso(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : value;
}

export function toIsoOrNull(value: string | Date | null): string | null {
  return value === null ? null : toIso(value);
}

export function toBool(value: boolean | number): boolean {
  return value === true || value === 1;
}

export function toCount(value: number | string | bigint): number {
  return Number(value);
}

export function fromJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

export function nowIso(): string {
  return new Date().toISOString();
}

/** True when a write failed on a foreign key (the row it refers to is gone), on either engine. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; message?: string } | null;
  if (!e) return false;
  return e.code === '23503' || e.errcode === 787 || /FOREIGN KEY constraint failed/.test(e.message ?? '');
}

/** True when a write failed on a unique constraint, on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; message?: string } | null;
  if (!e) return false;
  if (e.code === '23505') return true; // PostgreSQL unique_violation
  return e.errcode === 2067 || e.errcode === 1555 || /UNIQUE constraint failed/.test(e.message ?? '');
}
