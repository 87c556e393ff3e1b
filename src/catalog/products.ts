// The product list the operator edits (catalog/products.json), validated once at start-up:
// a wrong file stops the process with a message naming the file, the entry and the field.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CATALOG_LIMITS } from './limits.js';

export const LOCATIONS = [
  { id: 'fsn1', city: 'Falkenstein', country: 'DE' },
  { id: 'nbg1', city: 'Nuremberg', country: 'DE' },
  { id: 'hel1', city: 'Helsinki', country: 'FI' },
] as const;
export type LocationId = (typeof LOCATIONS)[number]['id'];
export const LOCATION_IDS = LOCATIONS.map((l) => l.id) as [LocationId, ...LocationId[]];

const cents = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

const Product = z.strictObject({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'slug: 1-32 of a-z 0-9 -, starting with a letter or digit'),
  name: z.string().min(1).max(60),
  description: z.string().max(200).optional(),
  cpu: z.enum(['shared', 'dedicated']),
  vcpu: z.number().int().min(1).max(512),
  ram_gb: z.number().positive().max(8192),
  disk_gb: z.number().int().min(1).max(1_000_000),
  traffic_tb: z.number().nonnegative().max(10_000),
  locations: z
    .array(z.enum(LOCATION_IDS))
    .min(1)
    .refine((a) => new Set(a).size === a.length, 'locations: listed twice'),
  billing_period: z.enum(['month', 'year']),
  price_eur: z.number().positive().max(CATALOG_LIMITS.price_eur_max).refine(cents, 'price_eur: at most two decimals'),
});
export type Product = z.infer<typeof Product>;

const ProductsFile = z.strictObject({
  note: z.string().max(300).optional(),
  products: z
    .array(Product)
    .min(1)
    .max(CATALOG_LIMITS.products_max)
    .superRefine((ps, ctx) => {
      const seen = new Set<string>();
      ps.forEach((p, i) => {
        if (seen.has(p.slug)) ctx.addIssue({ code: 'custom', message: `slug ${p.slug} listed twice`, path: [i, 'slug'] });
        seen.add(p.slug);
      });
    }),
});
export type Catalog = z.infer<typeof ProductsFile>;

/** Reads and validates the products file; throws one readable line on any fault. */
export function loadProducts(file: string): Catalog {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`catalog: cannot read products file ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'}); set CATALOG_PRODUCTS`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    throw new Error(`catalog: products file ${file} is not valid JSON: ${(e as Error).message}`);
  }
  const r = ProductsFile.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const path = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    throw new Error(`catalog: products file ${file} is invalid at ${path || '(root)'}: ${issue.message}`);
  }
  return r.data;
}

export const eurCents = (p: Product) => Math.round(p.price_eur * 100);
export const fmtEur = (cents: number) => (cents / 100).toFixed(2);
