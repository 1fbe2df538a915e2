//! The distributions behind the p-values: ln Γ (Lanczos, g = 7, n = 9),
//! the regularized upper incomplete gamma Q(a, x) (series below a + 1,
//! Lentz's continued fraction above, as in Numerical Recipes §6.2), the
//! chi-square survival function Q(df/2, x/2), the two-sided normal p-value
//! Q(1/2, z²/2), and the non-central chi-square survival function as a
//! Poisson mixture of central ones (for the power table).
//!
//! Written here rather than taken from a crate: five small functions, and
//! `statrs` would bring a linear-algebra stack along. The tests hold them to
//! closed forms (even degrees of freedom: Q(k, x) = e^−x Σ_{i<k} x^i / i!)
//! and to numerical integration of the normal density.

/// ln Γ(x) for x > 0 (Lanczos approximation, relative error below 1e−14).
pub(crate) fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        #[allow(clippy::cast_precision_loss, reason = "i < 9")]
        let i = i as f64;
        a += c / (x + i);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a).
pub(crate) fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    if x < a + 1.0 {
        1.0 - gamma_p_series(a, x)
    } else {
        gamma_q_fraction(a, x)
    }
}

fn gamma_p_series(a: f64, x: f64) -> f64 {
    let mut sum = 1.0 / a;
    let mut term = sum;
    let mut ap = a;
    for _ in 0..10_000 {
        ap += 1.0;
        term *= x / ap;
        sum += term;
        if term.abs() < sum.abs() * 1e-17 {
            break;
        }
    }
    (sum.ln() - x + a * x.ln() - ln_gamma(a)).exp()
}

fn gamma_q_fraction(a: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..10_000 {
        #[allow(clippy::cast_precision_loss, reason = "i < 10^4")]
        let i = f64::from(i);
        let an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x + a * x.ln() - ln_gamma(a)).exp() * h
}

/// P(χ²_df ≥ x).
pub(crate) fn chi2_sf(x: f64, df: f64) -> f64 {
    gamma_q(df / 2.0, x / 2.0)
}

/// The two-sided p-value of a standard normal statistic: P(|Z| ≥ |z|).
pub(crate) fn normal_two_sided(z: f64) -> f64 {
    gamma_q(0.5, z * z / 2.0)
}

/// P(χ²_df(λ) ≥ x), the non-central chi-square with non-centrality λ, as
/// the Poisson(λ/2) mixture Σ_j e^{−λ/2} (λ/2)^j / j! · P(χ²_{df+2j} ≥ x),
/// summed outwards from the mode of the Poisson weights until they are
/// negligible.
pub(crate) fn noncentral_chi2_sf(x: f64, df: f64, lambda: f64) -> f64 {
    if lambda <= 0.0 {
        return chi2_sf(x, df);
    }
    let half = lambda / 2.0;
    let weight = |j: f64| (-half + j * half.ln() - ln_gamma(j + 1.0)).exp();
    let mode = half.floor();
    let mut total = 0.0;
    let mut j = mode;
    loop {
        let w = weight(j);
        total += w * chi2_sf(x, df + 2.0 * j);
        if (w < 1e-17 && j > mode) || j > mode + 10_000.0 {
            break;
        }
        j += 1.0;
    }
    let mut j = mode - 1.0;
    while j >= 0.0 {
        let w = weight(j);
        total += w * chi2_sf(x, df + 2.0 * j);
        if w < 1e-17 {
            break;
        }
        j -= 1.0;
    }
    total.min(1.0)
}

/// The x with P(χ²_df ≥ x) = p (bisection on [`chi2_sf`], which falls in x).
pub(crate) fn chi2_isf(p: f64, df: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, df + 10.0);
    while chi2_sf(hi, df) > p {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if chi2_sf(mid, df) > p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Q(k, x) for an integer k: e^−x Σ_{i<k} x^i / i!, an independent closed form.
    fn q_integer(k: u32, x: f64) -> f64 {
        let mut term = 1.0;
        let mut sum = 1.0;
        for i in 1..k {
            term *= x / f64::from(i);
            sum += term;
        }
        (-x).exp() * sum
    }

    #[test]
    fn gamma_q_equals_the_closed_form_at_integer_a_far_into_the_tail() {
        for k in [1u32, 2, 3, 6, 17, 40, 200] {
            for x in [0.01, 0.5, 1.0, 3.0, 10.0, 30.0, 80.0, 250.0, 400.0] {
                let (got, want) = (gamma_q(f64::from(k), x), q_integer(k, x));
                assert!(
                    (got - want).abs() <= 1e-12 * want.max(1e-300) + 1e-300,
                    "Q({k}, {x}) = {got}, closed form {want}"
                );
            }
        }
    }

    #[test]
    fn the_normal_p_value_equals_integrating_the_density() {
        // Simpson's rule on the density from |z| to 12: an independent route to 2·P(Z ≥ z).
        for z in [0.1, 1.0, 1.96, 3.0, 5.0] {
            let n = 20_000;
            let (a, b) = (z, 12.0);
            let h = (b - a) / f64::from(n);
            let f = |t: f64| (-t * t / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
            let mut s = f(a) + f(b);
            for i in 1..n {
                s += f(a + f64::from(i) * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
            }
            let want = 2.0 * s * h / 3.0;
            let got = normal_two_sided(z);
            assert!((got - want).abs() <= 1e-9 * want, "z = {z}: {got} vs {want}");
        }
    }

    #[test]
    fn the_noncentral_survival_is_the_central_one_at_zero_and_grows_with_lambda() {
        let x = chi2_isf(1e-6, 12.0);
        assert!((chi2_sf(x, 12.0) - 1e-6).abs() < 1e-12);
        assert!((noncentral_chi2_sf(x, 12.0, 0.0) - 1e-6).abs() < 1e-12);
        let mut last = 0.0;
        for lambda in [1.0, 10.0, 50.0, 100.0, 400.0] {
            let p = noncentral_chi2_sf(x, 12.0, lambda);
            assert!(p > last, "λ = {lambda}: {p}");
            last = p;
        }
        assert!(last > 0.999);
    }

    #[test]
    fn the_noncentral_survival_of_one_degree_is_a_shifted_normal() {
        // χ²_1(λ) is (Z + √λ)²: P = P(Z ≥ √x − √λ) + P(Z ≤ −√x − √λ).
        let upper = |t: f64| normal_two_sided(t) / 2.0;
        for (x, lambda) in [(10.0, 4.0), (25.0, 16.0), (30.0, 60.0)] {
            let (s, m) = (f64::sqrt(x), f64::sqrt(lambda));
            let want = if s - m >= 0.0 { upper(s - m) } else { 1.0 - upper(m - s) } + upper(s + m);
            let got = noncentral_chi2_sf(x, 1.0, lambda);
            assert!((got - want).abs() < 1e-10, "x {x} λ {lambda}: {got} vs {want}");
        }
    }
}
