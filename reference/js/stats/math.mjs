// The distributions behind the p-values (src/stats/math.rs, line for line):
// the same float operations in the same order, so that a statistic's
// p-value differs from the audit's only where Math.exp and Math.log differ
// from the platform's libm in their last bit.

const LANCZOS = [
  0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406,
  12.507343278686905, -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9). */
export function lnGamma(x) {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  x -= 1;
  let a = LANCZOS[0];
  const t = x + 7 + 0.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

function gammaPSeries(a, x) {
  let sum = 1 / a;
  let term = sum;
  let ap = a;
  for (let i = 0; i < 10000; i++) {
    ap += 1;
    term *= x / ap;
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * 1e-17) break;
  }
  return Math.exp(Math.log(sum) - x + a * Math.log(x) - lnGamma(a));
}

function gammaQFraction(a, x) {
  const TINY = 1e-300;
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
}

/** The regularized upper incomplete gamma Q(a, x). */
export function gammaQ(a, x) {
  if (x <= 0) return 1;
  return x < a + 1 ? 1 - gammaPSeries(a, x) : gammaQFraction(a, x);
}

/** P(χ²_df ≥ x). */
export const chi2Sf = (x, df) => gammaQ(df / 2, x / 2);
/** P(|Z| ≥ |z|) for a standard normal Z. */
export const normalTwoSided = (z) => gammaQ(0.5, (z * z) / 2);
