/* pathcheck._speedups, part of the one translation unit _speedups.c: the solo deal's shuffle
 * (pathcheck.solo.seed_codes.permutation) for the solo kernel, portable and in AVX2. */

/* ---- the shuffle of a solo deal ---------------------------------------------------------- */

#define GOLDEN_GAMMA 0x9E3779B97F4A7C15ULL
#define MIX1 0xBF58476D1CE4E5B9ULL
#define MIX2 0x94D049BB133111EBULL
#define MAX_STACK 64
/* The kernel's swaps a deal (at most two a tile, see SoloSwaps in solo.c) and the bytes in
 * front of a deck that the swaps past the shuffle's touch. */
#define SOLO_DRAWS (2 * MAX_STACK)
#define SOLO_PAD (2 * MAX_STACK)
/* The bytes a draw takes in the kernel's table of draws: the index is the first (the vector
 * draws store each as the double 2^52 + index, whose low byte it is, see solo_draws_avx2). */
#define SX_DRAW_STRIDE 8

/* pathcheck.solo.seed_codes.permutation(seed, m) applied to deck[0..m-1] in place:
 * SplitMix64 from the seed, Fisher-Yates from the top (m <= MAX_STACK - 1). Draw t (t = 0,
 * 1, ...) is the SplitMix64 output of state seed + (t + 1) * GOLDEN_GAMMA, and swaps position
 * i = m - 1 - t with position (output mod (i + 1)). */

/* The portable draws: draw t (position i = m - 1 - t) to out[t], the modulo by the
 * constant i + 1 written out (a multiplication, where a variable divisor costs a 64-bit
 * division). The kernel takes the swaps as for the vector draws (SoloSwaps in solo.c). */
#define DRAW_STEP(i)                                                                 \
    do {                                                                             \
        state += GOLDEN_GAMMA;                                                       \
        uint64_t z_ = state;                                                         \
        z_ = (z_ ^ (z_ >> 30)) * MIX1;                                               \
        z_ = (z_ ^ (z_ >> 27)) * MIX2;                                               \
        z_ ^= z_ >> 31;                                                              \
        const uint64_t d_ = (uint64_t)(i) + 1; /* a constant: no division */         \
        out[SX_DRAW_STRIDE * (m - 1 - (i))] = (signed char)(z_ % d_);                \
    } while (0)

static void solo_draws_portable(signed char *out, int m, uint64_t state) {
    switch (m - 1) {
        case 62: DRAW_STEP(62); /* fall through */
        case 61: DRAW_STEP(61); /* fall through */
        case 60: DRAW_STEP(60); /* fall through */
        case 59: DRAW_STEP(59); /* fall through */
        case 58: DRAW_STEP(58); /* fall through */
        case 57: DRAW_STEP(57); /* fall through */
        case 56: DRAW_STEP(56); /* fall through */
        case 55: DRAW_STEP(55); /* fall through */
        case 54: DRAW_STEP(54); /* fall through */
        case 53: DRAW_STEP(53); /* fall through */
        case 52: DRAW_STEP(52); /* fall through */
        case 51: DRAW_STEP(51); /* fall through */
        case 50: DRAW_STEP(50); /* fall through */
        case 49: DRAW_STEP(49); /* fall through */
        case 48: DRAW_STEP(48); /* fall through */
        case 47: DRAW_STEP(47); /* fall through */
        case 46: DRAW_STEP(46); /* fall through */
        case 45: DRAW_STEP(45); /* fall through */
        case 44: DRAW_STEP(44); /* fall through */
        case 43: DRAW_STEP(43); /* fall through */
        case 42: DRAW_STEP(42); /* fall through */
        case 41: DRAW_STEP(41); /* fall through */
        case 40: DRAW_STEP(40); /* fall through */
        case 39: DRAW_STEP(39); /* fall through */
        case 38: DRAW_STEP(38); /* fall through */
        case 37: DRAW_STEP(37); /* fall through */
        case 36: DRAW_STEP(36); /* fall through */
        case 35: DRAW_STEP(35); /* fall through */
        case 34: DRAW_STEP(34); /* fall through */
        case 33: DRAW_STEP(33); /* fall through */
        case 32: DRAW_STEP(32); /* fall through */
        case 31: DRAW_STEP(31); /* fall through */
        case 30: DRAW_STEP(30); /* fall through */
        case 29: DRAW_STEP(29); /* fall through */
        case 28: DRAW_STEP(28); /* fall through */
        case 27: DRAW_STEP(27); /* fall through */
        case 26: DRAW_STEP(26); /* fall through */
        case 25: DRAW_STEP(25); /* fall through */
        case 24: DRAW_STEP(24); /* fall through */
        case 23: DRAW_STEP(23); /* fall through */
        case 22: DRAW_STEP(22); /* fall through */
        case 21: DRAW_STEP(21); /* fall through */
        case 20: DRAW_STEP(20); /* fall through */
        case 19: DRAW_STEP(19); /* fall through */
        case 18: DRAW_STEP(18); /* fall through */
        case 17: DRAW_STEP(17); /* fall through */
        case 16: DRAW_STEP(16); /* fall through */
        case 15: DRAW_STEP(15); /* fall through */
        case 14: DRAW_STEP(14); /* fall through */
        case 13: DRAW_STEP(13); /* fall through */
        case 12: DRAW_STEP(12); /* fall through */
        case 11: DRAW_STEP(11); /* fall through */
        case 10: DRAW_STEP(10); /* fall through */
        case 9: DRAW_STEP(9); /* fall through */
        case 8: DRAW_STEP(8); /* fall through */
        case 7: DRAW_STEP(7); /* fall through */
        case 6: DRAW_STEP(6); /* fall through */
        case 5: DRAW_STEP(5); /* fall through */
        case 4: DRAW_STEP(4); /* fall through */
        case 3: DRAW_STEP(3); /* fall through */
        case 2: DRAW_STEP(2); /* fall through */
        case 1: DRAW_STEP(1); /* fall through */
        default: break;
    }
}

/* The swaps of the shuffle from position top down to 1: position i with draw m - 1 - i
 * (draw t is the index draw t of the permutation swaps with). */
static void solo_swaps_from(unsigned char *deck, const signed char *draw, int m, int top) {
    for (int i = top; i > 0; i--) {
        const int k = draw[SX_DRAW_STRIDE * (m - 1 - i)];
        const unsigned char tmp = deck[i];
        deck[i] = deck[k];
        deck[k] = tmp;
    }
}

/* The vector shuffle (x86-64 with AVX2 and FMA, chosen at run time; -DSOLO_NO_SIMD builds
 * without it, to test the portable path on x86): four draws at once, for SOLO_BLOCK seeds in
 * one call (solo_draws_avx2), then the swaps, which the kernel spreads over the walk of the
 * deal before (SoloSwaps in solo.c). The same numbers as the portable shuffle, by arithmetic
 * that is exact:
 * - SplitMix64's 64-bit products mod 2^64 from one 32 x 32 -> 64 bit multiplication a lane
 *   and one 32 x 32 -> 32 bit multiplication of both halves (the two cross products, mod 2^32,
 *   are all of them that reaches the product's high half; solo_mul64);
 * - z mod d (d = i + 1 <= 63) as x mod d with x = (z >> 32) * (2^32 mod d) + (z & 0xFFFFFFFF),
 *   which is congruent to z and below 2^39;
 * - x mod d in doubles: x is exact (below 2^52); q = floor(x * inv), inv the double just above
 *   1/d rounded, is floor(x/d) (the fourth pass's proof is in docs/seeds.md, section 7), and
 *   2^52 + x - q*d, one fused rounding of an integer below 2^53, is exact: 2^52 + x mod d,
 *   whose low byte is x mod d. It is stored as it is, a draw every SX_DRAW_STRIDE bytes
 *   (packing the four into bytes took more instructions than the draw's own reduction).
 * tests/test_solo_kernel.py compares both shuffles with the Python permutation. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SOLO_NO_SIMD)
#define SOLO_SIMD 1
#include <immintrin.h>

/* Per stack size m, each draw's constants, padded to a multiple of 4 (d = 1 in the padding:
 * its draws give 0 and are not used). */
typedef struct {
    int m;
    long long rem[MAX_STACK];         /* 2^32 mod d */
    double div[MAX_STACK], inv[MAX_STACK];  /* d, and 1/d rounded */
} SoloDraws;

static void solo_draws_init(SoloDraws *w, int m) {
    w->m = m;
    for (int t = 0; t < MAX_STACK; t++) {
        int d = t < m - 1 ? m - t : 1;
        w->rem[t] = (long long)((UINT64_C(1) << 32) % (uint64_t)d);
        w->div[t] = (double)d;
        /* 1/d rounded, then the next double up: above 1/d by at most 1.5 of its ulp */
        double inv = 1.0 / (double)d;
        uint64_t bits;
        memcpy(&bits, &inv, sizeof bits);
        bits++;
        memcpy(&inv, &bits, sizeof inv);
        w->inv[t] = inv;
    }
}

__attribute__((target("avx2,fma")))
static inline __m256i solo_mul64(__m256i z, __m256i lo, __m256i crossed, __m256i high) {
    /* z * c mod 2^64, c = hi << 32 | lo: z_lo*c_lo + ((z_hi*c_lo + z_lo*c_hi) << 32), the two
     * cross products (mod 2^32) in one 32-bit multiplication by crossed = lo << 32 | hi */
    const __m256i cross = _mm256_mullo_epi32(z, crossed);  /* z_hi*c_lo << 32 | z_lo*c_hi */
    const __m256i low = _mm256_add_epi64(_mm256_mul_epu32(z, lo), _mm256_slli_epi64(cross, 32));
    return _mm256_add_epi64(low, _mm256_and_si256(cross, high));
}

/* The draws of seeds seed .. seed + count - 1 (m >= 2), each as m - 1 indices (draw t: the
 * index position m - 1 - t swaps with, the first byte of
 * out[(k * SOLO_DRAWS + t) * SX_DRAW_STRIDE]), then 0, -1, -2, -3 (swaps that change nothing,
 * see SoloSwaps). Seeds at once, so that the processor overlaps their multiplications; out is
 * 32-byte aligned. */
__attribute__((target("avx2,fma")))
static void solo_draws_avx2(const SoloDraws *w, uint64_t seed, int count, signed char *out) {
    const int m = w->m;
    const __m256i m1lo = _mm256_set1_epi64x((long long)(MIX1 & 0xFFFFFFFFu));
    const __m256i m1x = _mm256_set1_epi64x((long long)(MIX1 << 32 | MIX1 >> 32));
    const __m256i m2lo = _mm256_set1_epi64x((long long)(MIX2 & 0xFFFFFFFFu));
    const __m256i m2x = _mm256_set1_epi64x((long long)(MIX2 << 32 | MIX2 >> 32));
    const __m256i high = _mm256_set1_epi64x((long long)0xFFFFFFFF00000000ULL);
    const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFFLL);
    const __m256i exp52 = _mm256_set1_epi64x(0x4330000000000000LL);  /* the double 2^52 */
    const __m256d two52 = _mm256_set1_pd(4503599627370496.0);
    const __m256i step = _mm256_set1_epi64x((long long)(4 * GOLDEN_GAMMA));
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i first = _mm256_set_epi64x(
        (long long)(seed + 4 * GOLDEN_GAMMA), (long long)(seed + 3 * GOLDEN_GAMMA),
        (long long)(seed + 2 * GOLDEN_GAMMA), (long long)(seed + GOLDEN_GAMMA));
    const size_t shuffled = (size_t)(m - 1);
    for (int k = 0; k < count; k++, out += SX_DRAW_STRIDE * SOLO_DRAWS) {
        __m256i state = first;
        first = _mm256_add_epi64(first, one);
        double *slot = (double *)out;
        for (size_t t = 0; t < shuffled; t += 4, slot += 4) {
            __m256i z = state;
            state = _mm256_add_epi64(state, step);
            z = _mm256_xor_si256(z, _mm256_srli_epi64(z, 30));
            z = solo_mul64(z, m1lo, m1x, high);
            z = _mm256_xor_si256(z, _mm256_srli_epi64(z, 27));
            z = solo_mul64(z, m2lo, m2x, high);
            z = _mm256_xor_si256(z, _mm256_srli_epi64(z, 31));
            __m256i x = _mm256_add_epi64(
                _mm256_mul_epu32(_mm256_srli_epi64(z, 32),
                                 _mm256_loadu_si256((const __m256i *)(w->rem + t))),
                _mm256_and_si256(z, low32));
            const __m256d big = _mm256_castsi256_pd(_mm256_or_si256(x, exp52));  /* 2^52 + x */
            __m256d xd = _mm256_sub_pd(big, two52);
            __m256d d = _mm256_loadu_pd(w->div + t);
            __m256d q = _mm256_floor_pd(_mm256_mul_pd(xd, _mm256_loadu_pd(w->inv + t)));
            /* 2^52 + x mod d: its low byte is the index */
            _mm256_store_pd(slot, _mm256_fnmadd_pd(q, d, big));
        }
        signed char *pad = out + SX_DRAW_STRIDE * shuffled;  /* see SoloSwaps */
        pad[0] = 0;
        pad[SX_DRAW_STRIDE] = -1;
        pad[2 * SX_DRAW_STRIDE] = -2;
        pad[3 * SX_DRAW_STRIDE] = -3;
    }
}

static int solo_simd_available(void) {
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#else
#define SOLO_SIMD 0
static int solo_simd_available(void) { return 0; }
#endif
