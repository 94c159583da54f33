import type { LedgerProduct } from '../../contracts/ledger';
import { customerCountOf, productCountOf, type DemoProfile } from './demo-profile';
import { mixSeed, seededRandom } from './seeded-random';

const kinds = ['Consulting hours', 'Support plan', 'Licence', 'Installation', 'Training day', 'Hardware kit'];
const grades = ['Basic', 'Standard', 'Premium', 'Enterprise'];

/** The company's catalogue: a dozen to a few hundred products with list prices in cents. */
export const demoProducts = (profile: DemoProfile, sellerId: number): LedgerProduct[] => {
  const random = seededRandom(mixSeed(profile.seed, 0x9e37));
  return Array.from({ length: productCountOf(profile) }, (_, index) => {
    const productId = index + 1;
    const kind = kinds[index % kinds.length] ?? 'Service';
    const grade = grades[Math.floor(index / kinds.length) % grades.length] ?? 'Standard';
    const series = Math.floor(index / (kinds.length * grades.length));
    return {
      sellerId,
      providerId: `ITEM-${productId}`,
      productId,
      name: `${grade} ${kind}${series > 0 ? ` ${series + 1}` : ''}`,
      unitPrice: Math.round(2_000 + random.next() * 48_000) * (1 + (index % grades.length)),
    };
  });
};

/** Used by customer histories to draw line items without rebuilding the catalogue per customer. */
export const demoCatalogue = (profile: DemoProfile) => {
  const products = demoProducts(profile, 1);
  return { prices: products.map((p) => p.unitPrice), customers: customerCountOf(profile) };
};
