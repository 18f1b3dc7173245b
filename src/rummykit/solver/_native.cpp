// Compiled twin of rummykit's meld search: minimum deadwood, best discards, best opening value and
// the knock-game race play-out. Answers are identical to the pure-Python backend
// (rummykit/solver/python_backend.py); tests/test_solver_native.py checks that differentially.
//
// A hand is kept as two 64-bit masks over card codes (suit * 13 + rank - 1): the faces held at
// least once (h1) and the faces held twice (h2, a subset of h1), plus a joker count. A candidate
// meld is the same kind of multiset (m1, m2, jokers). It fits when m1 is inside h1 and m2 inside
// h2; removing it clears m2 from both masks and, for the faces used once, the second copy if there
// is one, else the first.
//
// The rule set arrives as its meld options (see rummykit/solver/tables.py, MELD_OPTIONS): run
// position bounds (ace low / high), whether a run may turn the corner at the ace, the longest
// joker streak in a run, set sizes, distinct suits in sets, the joker-count table of joker_limit
// and the deadwood value of every card code.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace py = pybind11;
using u64 = std::uint64_t;

namespace {

constexpr int kFaces = 52;
constexpr int kJoker = 52;
constexpr int kRanks = 13;
constexpr int kSetMinNaturals = 2;  // rummykit.melds.SET_MIN_NATURALS
constexpr int kLowAce = 1;
constexpr int kHighAce = 14;
constexpr int kMaxJokers = 63;  // joker counts above this are left to the Python twin
constexpr int kNeg = -(1 << 28);
// Result caches (ResultCache) start with 2^kCacheMinLog2 slots and double up to their own maximum:
// 2^kSolverCacheLog2 for a Solver's shared Worker, 2^kThreadCacheLog2 for a batch thread's Worker.
constexpr int kCacheMinLog2 = 10;
constexpr int kSolverCacheLog2 = 13;
constexpr int kThreadCacheLog2 = 12;

inline int ctz(u64 x) { return __builtin_ctzll(x); }
inline int popcount(u64 x) { return __builtin_popcountll(x); }
inline u64 bit(int c) { return u64{1} << c; }

// Opening value of a card on run position p (low ace 1, pips, courts 10, high ace 11) and of a card
// of rank r in a set (ace 11): rummykit.melds.position_value and rank_value.
inline int position_value(int p) { return p == kHighAce ? 11 : (p > 10 ? 10 : p); }
inline int rank_value(int r) { return r == 1 ? 11 : (r > 10 ? 10 : r); }

struct Options {
    int lo = kLowAce;
    int hi = kHighAce;
    bool both_ends = false;
    int max_adj = -1;  // -1: no limit
    int set_min = 3;
    int set_max = 4;
    bool distinct = true;
    std::array<std::array<bool, 16>, 16> joker_ok{};  // [naturals][jokers]
    std::array<int, kFaces + 1> dv{};                 // deadwood value per card code (52 = joker)
    bool joker_upward = false;  // joker_end_assignment = upward_default: a joker fitting on top goes there
};

struct Hand {
    u64 h1 = 0;
    u64 h2 = 0;
    int jokers = 0;
    int size() const { return popcount(h1) + popcount(h2) + jokers; }
    bool add(int c) {
        if (c == kJoker) {
            ++jokers;
            return true;
        }
        u64 b = bit(c);
        if (h2 & b) return false;
        if (h1 & b) {
            h2 |= b;
        } else {
            h1 |= b;
        }
        return true;
    }
    void remove_one(int c) {
        if (c == kJoker) {
            --jokers;
            return;
        }
        u64 b = bit(c);
        if (h2 & b) {
            h2 &= ~b;
        } else {
            h1 &= ~b;
        }
    }
};

struct Cand {
    u64 m1;
    u64 m2;
    int jokers;
    int gain;   // deadwood removed when formed
    int value;  // best opening value over its layouts
    int low;    // lowest natural card code
    int shape = -1;  // ordered enumeration: index of its representative layout (Search::shapes_)
};

// One layout of a candidate meld, as the Python twin's _Shape: card codes in position order (runs)
// or naturals by suit then jokers (sets), and how to read it.
struct Shape {
    std::array<std::int8_t, 16> cards{};
    int n = 0;
    bool run = false;
    int start = 0;
    int suit = -1;
    int rank = 0;
    int value = 0;
};

inline bool fits(const Cand& m, u64 h1, u64 h2, int jokers) {
    return m.jokers <= jokers && !(m.m1 & ~h1) && !(m.m2 & ~h2);
}

inline void take(const Cand& m, u64& h1, u64& h2) {
    u64 single = m.m1 & ~m.m2;
    h1 &= ~(m.m2 | (single & ~h2));
    h2 &= ~m.m1;
}

int longest_zero_run(unsigned sub, int start, int end) {
    int best = 0, streak = 0;
    for (int p = start; p <= end; ++p) {
        if (sub >> p & 1u) {
            streak = 0;
        } else if (++streak > best) {
            best = streak;
        }
    }
    return best;
}

// Every candidate meld formable from the hand (as multisets, duplicates merged keeping the best
// value), grouped by lowest natural card code.
void enumerate(const Options& o, const Hand& h, std::vector<Cand>& out) {
    out.clear();
    const int J = h.jokers;
    const int jv = o.dv[kJoker];
    int bits[16];
    for (int s = 0; s < 4; ++s) {
        unsigned ranks = static_cast<unsigned>(h.h1 >> (kRanks * s)) & 0x1FFFu;
        if (!ranks) continue;
        unsigned pos = ranks << 1;
        if (o.lo != kLowAce) pos &= ~(1u << kLowAce);
        if ((ranks & 1u) && o.hi == kHighAce) pos |= 1u << kHighAce;
        if (popcount(pos) + J < 3 || !pos) continue;
        const bool ace_twice = (h.h2 >> (kRanks * s)) & 1u;
        for (int start = o.lo; start <= o.hi - 2; ++start) {
            for (int end = start + 2; end <= o.hi; ++end) {
                const int len = end - start + 1;
                const unsigned window = ((1u << len) - 1u) << start;
                const unsigned present = pos & window;
                const int np = popcount(present);
                const int gaps = len - np;
                if (gaps > J) break;  // a longer window only adds gaps
                if (!present) continue;
                if (start == kLowAce && end == kHighAce && !o.both_ends) continue;
                int value = 0;
                for (int p = start; p <= end; ++p) value += position_value(p);
                const int max_drop = std::min(J - gaps, np - 1);
                int nb = 0;
                for (unsigned x = present; x; x &= x - 1) bits[nb++] = ctz(x);
                // Every subset of the naturals dropping at most max_drop of them (jokers replace them).
                const unsigned full = (1u << nb) - 1u;
                for (unsigned drop = 0; drop <= full; ++drop) {
                    if (popcount(drop) > max_drop) continue;
                    unsigned sub = present;
                    for (int i = 0; i < nb; ++i)
                        if (drop >> i & 1u) sub &= ~(1u << bits[i]);
                    const int n = popcount(sub);
                    const int k = len - n;
                    if (!o.joker_ok[n][k]) continue;
                    if ((sub >> kLowAce & 1u) && (sub >> kHighAce & 1u) && !ace_twice) continue;
                    if (o.max_adj >= 0 && k > 0 && longest_zero_run(sub, start, end) > o.max_adj) continue;
                    Cand m{0, 0, k, k * jv, value, 0};
                    for (unsigned x = sub; x; x &= x - 1) {
                        const int p = ctz(x);
                        const int c = kRanks * s + (p == kHighAce ? 1 : p) - 1;
                        if (m.m1 & bit(c)) {
                            m.m2 |= bit(c);
                        } else {
                            m.m1 |= bit(c);
                        }
                        m.gain += o.dv[c];
                    }
                    m.low = ctz(m.m1);
                    out.push_back(m);
                }
            }
        }
    }
    for (int r = 1; r <= kRanks; ++r) {
        int cnt[4];
        int total = 0;
        for (int s = 0; s < 4; ++s) {
            const int c = kRanks * s + r - 1;
            cnt[s] = static_cast<int>((h.h1 >> c) & 1u) + static_cast<int>((h.h2 >> c) & 1u);
            if (o.distinct && cnt[s] > 1) cnt[s] = 1;
            total += cnt[s];
        }
        if (!total || total + J < o.set_min) continue;
        for (int a = 0; a <= cnt[0]; ++a)
            for (int b = 0; b <= cnt[1]; ++b)
                for (int c2 = 0; c2 <= cnt[2]; ++c2)
                    for (int d = 0; d <= cnt[3]; ++d) {
                        const int choice[4] = {a, b, c2, d};
                        const int n = a + b + c2 + d;
                        if (n < kSetMinNaturals) continue;
                        u64 m1 = 0, m2 = 0;
                        int gain = 0;
                        for (int s = 0; s < 4; ++s) {
                            const int code = kRanks * s + r - 1;
                            if (choice[s] >= 1) m1 |= bit(code);
                            if (choice[s] == 2) m2 |= bit(code);
                            gain += choice[s] * o.dv[code];
                        }
                        for (int k = 0; k <= J; ++k) {
                            const int size = n + k;
                            if (size > o.set_max) break;
                            if (size < o.set_min || !o.joker_ok[n][k]) continue;
                            out.push_back(Cand{m1, m2, k, gain + k * jv, rank_value(r) * size, ctz(m1)});
                        }
                    }
    }
    std::sort(out.begin(), out.end(), [](const Cand& x, const Cand& y) {
        if (x.low != y.low) return x.low < y.low;
        if (x.m1 != y.m1) return x.m1 < y.m1;
        if (x.m2 != y.m2) return x.m2 < y.m2;
        return x.jokers < y.jokers;
    });
    std::size_t w = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (w && out[w - 1].m1 == out[i].m1 && out[w - 1].m2 == out[i].m2 && out[w - 1].jokers == out[i].jokers) {
            out[w - 1].value = std::max(out[w - 1].value, out[i].value);
        } else {
            out[w++] = out[i];
        }
    }
    out.resize(w);
}

// The candidates in exactly the order of the Python twin (rummykit/solver/candidates.py:
// _candidates): runs per segment of consecutive positions (no jokers) or per cluster of positions
// that jokers can bridge (suit by suit), then sets rank by rank; inside each group the layouts in
// _run_shapes / _set_shapes order, merged by multiset in first-seen order, each keeping the first
// layout of the highest value. The path searches (best_opening, best_arrangement) break ties by
// this order, so their melds are the twin's.
class Ordered {
  public:
    Ordered(const Options& o, std::vector<Cand>& out, std::vector<Shape>& shapes)
        : o_(o), out_(out), shapes_(shapes) {
        out_.clear();
        shapes_.clear();
    }

    void run(const Hand& h) {
        const int J = h.jokers;
        if (J) {
            std::vector<int> suits;
            unsigned ranks = 0;
            unsigned per[4];
            for (int s = 0; s < 4; ++s) per[s] = static_cast<unsigned>(h.h1 >> (kRanks * s)) & 0x1FFFu;
            const int need = min_naturals_with_jokers();
            // A set needs two naturals under every joker_limit (rummykit.melds.SET_MIN_NATURALS).
            ranks = (per[0] & per[1]) | (per[0] & per[2]) | (per[0] & per[3]) | (per[1] & per[2]) |
                    (per[1] & per[3]) | (per[2] & per[3]);
            for (int s = 0; s < 4; ++s)
                if (popcount(per[s]) >= (need == 1 ? 1 : 2)) suits.push_back(s);
            if (!o_.distinct)
                for (int s = 0; s < 4; ++s) ranks |= static_cast<unsigned>(h.h2 >> (kRanks * s)) & 0x1FFFu;
            for (int s : suits) suit_runs(s, per[s], (h.h2 >> (kRanks * s)) & 1u, J, need);
            sets(h, ranks, J);
            return;
        }
        for (int s = 0; s < 4; ++s) {
            const unsigned ranks = static_cast<unsigned>(h.h1 >> (kRanks * s)) & 0x1FFFu;
            unsigned p = positions(ranks);
            if (!(p & p >> 1 & p >> 2)) continue;
            const bool ace_twice = (h.h2 >> (kRanks * s)) & 1u;
            while (p) {
                const unsigned low = p & (0u - p);
                const unsigned segment = p & ~(p + low);
                p ^= segment;
                if (popcount(segment) >= 3) {
                    begin_group();
                    run_shapes(s, segment, segment == kAllPositions && ace_twice, 0);
                }
            }
        }
        unsigned a[4];
        for (int s = 0; s < 4; ++s) a[s] = static_cast<unsigned>(h.h1 >> (kRanks * s)) & 0x1FFFu;
        const unsigned three = (a[0] & a[1] & a[2]) | (a[0] & a[1] & a[3]) | (a[0] & a[2] & a[3]) | (a[1] & a[2] & a[3]);
        unsigned ranks;
        if (!o_.distinct) {
            ranks = a[0] | a[1] | a[2] | a[3];
        } else if (o_.set_min == 3) {
            ranks = three;
        } else {
            ranks = three & a[0] & a[1] & a[2] & a[3];
        }
        sets(h, ranks, 0);
    }

    // candidates.all_melds: every layout once, not merged: runs suit by suit over all positions,
    // then sets rank by rank; a layout seen before (a one-natural set written like a run) is skipped.
    void all_layouts(const Hand& h) {
        raw_ = true;
        unsigned any = 0;
        for (int s = 0; s < 4; ++s) {
            const unsigned ranks = static_cast<unsigned>(h.h1 >> (kRanks * s)) & 0x1FFFu;
            any |= ranks;
            if (ranks) run_shapes(s, positions(ranks), (h.h2 >> (kRanks * s)) & 1u, h.jokers);
        }
        sets(h, any, h.jokers);
    }

  private:
    static constexpr unsigned kAllPositions = ((1u << kHighAce) - 1u) << kLowAce;

    int min_naturals_with_jokers() const {
        for (int n = 1; n <= 3; ++n)
            for (int k = std::max(1, 3 - n); k < 14; ++k)
                if (o_.joker_ok[n][k]) return n;
        return 3;
    }

    unsigned positions(unsigned ranks) const {
        unsigned pos = ranks << 1;
        if (o_.lo != kLowAce) pos &= ~(1u << kLowAce);
        if ((ranks & 1u) && o_.hi == kHighAce) pos |= 1u << kHighAce;
        return pos;
    }

    void suit_runs(int s, unsigned ranks, bool ace_twice, int J, int need) {
        unsigned bits = positions(ranks);
        unsigned cluster = 0;
        int prev = -kHighAce;
        while (true) {
            const int p = bits ? ctz(bits) : 0;
            if (!bits || (p - prev - 1 > J && cluster)) {
                if (popcount(cluster) >= need) {
                    const bool twice = ace_twice && (cluster >> kLowAce & 1u) && (cluster >> kHighAce & 1u);
                    begin_group();
                    run_shapes(s, cluster, twice, J);
                }
                cluster = 0;
                if (!bits) break;
            }
            cluster |= 1u << p;
            prev = p;
            bits &= bits - 1;
        }
    }

    void run_shapes(int s, unsigned pos, bool ace_twice, int J) {
        int bits[16];
        int idx[16];
        for (int start = o_.lo; start <= o_.hi - 2; ++start) {
            for (int end = start + 2; end <= o_.hi; ++end) {
                const int len = end - start + 1;
                const unsigned window = ((1u << len) - 1u) << start;
                const unsigned present = pos & window;
                const int nb = popcount(present);
                const int gaps = len - nb;
                if (gaps > J) break;
                if (!present) continue;
                if (start == kLowAce && end == kHighAce && !o_.both_ends) continue;
                int value = 0;
                for (int p = start; p <= end; ++p) value += position_value(p);
                int i = 0;
                for (unsigned x = present; x; x &= x - 1) bits[i++] = ctz(x);
                const int max_drop = std::min(J - gaps, nb - 1);
                for (int d = 0; d <= max_drop; ++d) {
                    // itertools.combinations(bits, d) in lexicographic order.
                    for (int t = 0; t < d; ++t) idx[t] = t;
                    while (true) {
                        unsigned sub = present;
                        for (int t = 0; t < d; ++t) sub &= ~(1u << bits[idx[t]]);
                        run_layout(s, start, end, sub, ace_twice, value);
                        int t = d - 1;
                        while (t >= 0 && idx[t] == nb - d + t) --t;
                        if (t < 0) break;
                        ++idx[t];
                        for (int u = t + 1; u < d; ++u) idx[u] = idx[u - 1] + 1;
                    }
                }
            }
        }
    }

    void run_layout(int s, int start, int end, unsigned sub, bool ace_twice, int value) {
        const int len = end - start + 1;
        const int n = popcount(sub);
        const int k = len - n;
        if (!o_.joker_ok[n][k]) return;
        if ((sub >> kLowAce & 1u) && (sub >> kHighAce & 1u) && !ace_twice) return;
        if (o_.max_adj >= 0 && k > 0 && longest_zero_run(sub, start, end) > o_.max_adj) return;
        Shape shape;
        shape.run = true;
        shape.start = start;
        shape.suit = s;
        shape.value = value;
        Cand m{0, 0, k, k * o_.dv[kJoker], value, 0};
        for (int p = start; p <= end; ++p) {
            int c = kJoker;
            if (sub >> p & 1u) {
                c = kRanks * s + (p == kHighAce ? 1 : p) - 1;
                if (m.m1 & bit(c)) {
                    m.m2 |= bit(c);
                } else {
                    m.m1 |= bit(c);
                }
                m.gain += o_.dv[c];
            }
            shape.cards[shape.n++] = static_cast<std::int8_t>(c);
        }
        add(m, shape);
    }

    void sets(const Hand& h, unsigned ranks, int J) {
        for (; ranks; ranks &= ranks - 1) {
            const int r = ctz(ranks) + 1;
            int cnt[4];
            for (int s = 0; s < 4; ++s) {
                const int c = kRanks * s + r - 1;
                cnt[s] = static_cast<int>((h.h1 >> c) & 1u) + static_cast<int>((h.h2 >> c) & 1u);
                if (o_.distinct && cnt[s] > 1) cnt[s] = 1;
            }
            begin_group();
            for (int a = 0; a <= cnt[0]; ++a)
                for (int b = 0; b <= cnt[1]; ++b)
                    for (int c2 = 0; c2 <= cnt[2]; ++c2)
                        for (int d = 0; d <= cnt[3]; ++d) {
                            const int choice[4] = {a, b, c2, d};
                            const int n = a + b + c2 + d;
                            if (n < kSetMinNaturals) continue;
                            for (int k = 0; k <= J; ++k) {
                                const int size = n + k;
                                if (size > o_.set_max) break;
                                if (size < o_.set_min || !o_.joker_ok[n][k]) continue;
                                Shape shape;
                                shape.rank = r;
                                shape.value = rank_value(r) * size;
                                Cand m{0, 0, k, k * o_.dv[kJoker], shape.value, 0};
                                for (int s = 0; s < 4; ++s) {
                                    const int code = kRanks * s + r - 1;
                                    for (int t = 0; t < choice[s]; ++t) {
                                        shape.cards[shape.n++] = static_cast<std::int8_t>(code);
                                        m.gain += o_.dv[code];
                                    }
                                    if (choice[s] >= 1) m.m1 |= bit(code);
                                    if (choice[s] == 2) m.m2 |= bit(code);
                                }
                                for (int t = 0; t < k; ++t) shape.cards[shape.n++] = static_cast<std::int8_t>(kJoker);
                                add(m, shape);
                            }
                        }
        }
    }

    void begin_group() { group_ = out_.size(); }

    // _cands: one candidate per multiset of the group, the first layout of the highest value.
    void add(Cand m, const Shape& shape) {
        if (raw_) {
            std::array<std::int8_t, 17> key{};
            std::copy(shape.cards.begin(), shape.cards.begin() + shape.n, key.begin());
            key[16] = static_cast<std::int8_t>(shape.n);
            if (seen_.insert(key).second) shapes_.push_back(shape);
            return;
        }
        for (std::size_t i = group_; i < out_.size(); ++i) {
            Cand& old = out_[i];
            if (old.m1 == m.m1 && old.m2 == m.m2 && old.jokers == m.jokers) {
                if (m.value > old.value) {
                    old.value = m.value;
                    shapes_[old.shape] = shape;
                }
                return;
            }
        }
        m.low = ctz(m.m1);
        m.shape = static_cast<int>(shapes_.size());
        shapes_.push_back(shape);
        out_.push_back(m);
    }

    const Options& o_;
    std::vector<Cand>& out_;
    std::vector<Shape>& shapes_;
    std::size_t group_ = 0;
    bool raw_ = false;
    std::set<std::array<std::int8_t, 17>> seen_;
};

// Memo of one search: open addressing over (h1, h2 | jokers | mode), emptied in O(1) per search.
class Memo {
  public:
    Memo() : table_(1024) {}
    void reset() {
        if (++gen_ == 0) {
            std::fill(table_.begin(), table_.end(), Entry{});
            gen_ = 1;
        }
        count_ = 0;
    }
    struct Result {
        int value = 0;
        u64 mask = 0;  // discard search: the distinct discards reaching ``value``
    };
    // The slot for the key: found (result valid) or fresh (to be filled by the caller).
    Result* find(u64 a, u64 b, bool& found) {
        if (2 * (count_ + 1) > table_.size()) grow();
        std::size_t mask = table_.size() - 1;
        std::size_t i = hash(a, b) & mask;
        while (true) {
            Entry& e = table_[i];
            if (e.gen != gen_) {
                e.gen = gen_;
                e.a = a;
                e.b = b;
                ++count_;
                found = false;
                return &e.result;
            }
            if (e.a == a && e.b == b) {
                found = true;
                return &e.result;
            }
            i = (i + 1) & mask;
        }
    }

  private:
    struct Entry {
        u64 a = 0;
        u64 b = 0;
        Result result;
        std::uint32_t gen = 0;
    };
    static std::size_t hash(u64 a, u64 b) {
        u64 x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a >> 29));
        x ^= x >> 31;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 29;
        return static_cast<std::size_t>(x);
    }
    void grow() {
        std::vector<Entry> old(table_.size() * 2);
        old.swap(table_);
        std::size_t mask = table_.size() - 1;
        for (const Entry& e : old) {
            if (e.gen != gen_) continue;
            std::size_t i = hash(e.a, e.b) & mask;
            while (table_[i].gen == gen_) i = (i + 1) & mask;
            table_[i] = e;
        }
    }
    std::vector<Entry> table_;
    std::uint32_t gen_ = 1;
    std::size_t count_ = 0;
};

enum Mode : u64 { kGain = 0, kDiscard = 1, kValueOpen = 2, kValueKept = 3 };

inline u64 state_b(u64 h2, int jokers, Mode mode) {
    return h2 | static_cast<u64>(jokers) << 52 | static_cast<u64>(mode) << 60;
}

// One search over the candidates of one hand. Never shared between threads.
class Search {
  public:
    explicit Search(const Options& o) : o_(o) {}

    void prepare(const Hand& h) {
        enumerate(o_, h, cands_);
        first_.fill(0);
        last_.fill(0);
        opener_ = useful_ = 0;
        for (std::size_t i = 0; i < cands_.size(); ++i) {
            const Cand& m = cands_[i];
            if (!(opener_ & bit(m.low))) first_[m.low] = static_cast<int>(i);
            last_[m.low] = static_cast<int>(i) + 1;
            opener_ |= bit(m.low);
            useful_ |= m.m1;
        }
        memo_.reset();
    }

    // The candidates in the Python twin's order (see Ordered), grouped by lowest card in that order.
    void prepare_ordered(const Hand& h) {
        Ordered(o_, cands_, shapes_).run(h);
        // by_low order of the twin: lows by first appearance, each list in enumeration order.
        dict_order_.clear();
        u64 seen = 0;
        std::array<int, kFaces> rank_of_low{};
        int next = 0;
        for (const Cand& m : cands_)
            if (!(seen & bit(m.low))) {
                seen |= bit(m.low);
                rank_of_low[m.low] = next++;
            }
        std::stable_sort(cands_.begin(), cands_.end(), [](const Cand& x, const Cand& y) { return x.low < y.low; });
        first_.fill(0);
        last_.fill(0);
        opener_ = useful_ = 0;
        for (std::size_t i = 0; i < cands_.size(); ++i) {
            const Cand& m = cands_[i];
            if (!(opener_ & bit(m.low))) first_[m.low] = static_cast<int>(i);
            last_[m.low] = static_cast<int>(i) + 1;
            opener_ |= bit(m.low);
            useful_ |= m.m1;
        }
        std::vector<int> lows;
        for (u64 x = opener_; x; x &= x - 1) lows.push_back(ctz(x));
        std::sort(lows.begin(), lows.end(), [&](int x, int y) { return rank_of_low[x] < rank_of_low[y]; });
        for (int low : lows)
            for (int i = first_[low]; i < last_[low]; ++i) dict_order_.push_back(i);
        memo_.reset();
    }

    const std::vector<Cand>& cands() const { return cands_; }
    const std::vector<Shape>& shapes() const { return shapes_; }

    // rummykit.solver api.best_opening (Python twin): the candidate indices of the chosen melds, in
    // the twin's order; false when no collection qualifies. ``must``: a card code or -1.
    bool best_opening(const Hand& h, bool keep_one, int must, bool single, int minimum, std::vector<int>& best) {
        prepare_ordered(h);
        best.clear();
        const u64 r1 = h.h1 & useful_, r2 = h.h2 & useful_;
        const int J = h.jokers;
        const bool kept0 = !keep_one || (h.h1 & ~useful_);
        int best_total = -1;
        if (must < 0 && !single) {
            const int total = value(r1, r2, J, kept0);
            if (total > 0) {
                best_total = total;
                value_path(r1, r2, J, kept0, best);
            }
        } else {
            std::vector<int> all(dict_order_);
            std::stable_sort(all.begin(), all.end(), [&](int x, int y) {
                const Cand& a = cands_[x];
                const Cand& b = cands_[y];
                if (a.value != b.value) return a.value > b.value;
                const Shape& sa = shapes_[a.shape];
                const Shape& sb = shapes_[b.shape];
                return std::lexicographical_compare(sa.cards.begin(), sa.cards.begin() + sa.n, sb.cards.begin(),
                                                    sb.cards.begin() + sb.n);
            });
            std::vector<int> sub;
            for (int i : all) {
                const Cand& anchor = cands_[i];
                if (single && anchor.value < minimum) continue;
                if (!fits(anchor, r1, r2, J)) continue;
                u64 a = r1, b = r2;
                take(anchor, a, b);
                const int j = J - anchor.jokers;
                const bool need = must >= 0 && !covers(anchor, must);
                int sub_total;
                if (need) {
                    sub_total = best_with_card(a, b, j, kept0, must, sub);
                    if (sub_total < 0) continue;
                } else {
                    sub_total = value(a, b, j, kept0);
                    if (sub_total < 0) continue;
                }
                const int total = anchor.value + sub_total;
                if (total > best_total) {
                    if (!need) value_path(a, b, j, kept0, sub);
                    best_total = total;
                    best.assign(1, i);
                    best.insert(best.end(), sub.begin(), sub.end());
                }
            }
        }
        return !(best_total <= 0 || best_total < minimum);
    }

    // rummykit.solver api.best_arrangement (Python twin): the chosen candidate indices; ``h`` becomes
    // the cards left over.
    void best_arrangement(Hand& h, std::vector<int>& chosen) {
        prepare_ordered(h);
        chosen.clear();
        u64 r1 = h.h1 & useful_, r2 = h.h2 & useful_;
        int j = h.jokers;
        while (r1) {
            const int low = ctz(r1);
            if (!(opener_ & bit(low))) {
                remove_one(low, r1, r2);
                continue;
            }
            const int target = gain(r1, r2, j);
            bool taken = false;
            for (int i = first_[low]; i < last_[low]; ++i) {
                const Cand& m = cands_[i];
                if (!fits(m, r1, r2, j)) continue;
                u64 a = r1, b = r2;
                take(m, a, b);
                if (m.gain + gain(a, b, j - m.jokers) == target) {
                    chosen.push_back(i);
                    take(m, h.h1, h.h2);
                    h.jokers -= m.jokers;
                    r1 = a;
                    r2 = b;
                    j -= m.jokers;
                    taken = true;
                    break;
                }
            }
            if (!taken) remove_one(low, r1, r2);
        }
    }

    int total(const Hand& h) const {
        int t = h.jokers * o_.dv[kJoker];
        for (u64 x = h.h1; x; x &= x - 1) t += o_.dv[ctz(x)];
        for (u64 x = h.h2; x; x &= x - 1) t += o_.dv[ctz(x)];
        return t;
    }

    int min_deadwood(const Hand& h) {
        prepare(h);
        return total(h) - gain(h.h1, h.h2, h.jokers);
    }

    // Least deadwood after one discard and the mask of the distinct discards reaching it (bit 52: joker).
    std::pair<int, u64> best_discards(const Hand& h) {
        prepare(h);
        const Memo::Result best = discard(h.h1, h.h2, h.jokers);
        return {total(h) - best.value, best.mask};
    }

    int max_opening_value(const Hand& h, bool keep_one) {
        prepare(h);
        const bool kept = !keep_one || (h.h1 & ~useful_);
        return std::max(0, value(h.h1 & useful_, h.h2 & useful_, h.jokers, kept));
    }

  private:
    static void remove_one(int c, u64& h1, u64& h2) {
        if (h2 & bit(c)) {
            h2 &= ~bit(c);
        } else {
            h1 &= ~bit(c);
        }
    }

    static bool covers(const Cand& m, int card) { return card == kJoker ? m.jokers > 0 : (m.m1 >> card) & 1u; }

    // _value_path: the melds of a collection reaching value(); the first fitting candidate per card.
    void value_path(u64 h1, u64 h2, int j, bool kept, std::vector<int>& chosen) {
        chosen.clear();
        while (h1) {
            const int low = ctz(h1);
            if (!(opener_ & bit(low))) {
                remove_one(low, h1, h2);
                kept = true;
                continue;
            }
            const int target = value(h1, h2, j, kept);
            bool taken = false;
            for (int i = first_[low]; i < last_[low]; ++i) {
                const Cand& m = cands_[i];
                if (!fits(m, h1, h2, j)) continue;
                u64 a = h1, b = h2;
                take(m, a, b);
                const int sub = value(a, b, j - m.jokers, kept);
                if (sub >= 0 && m.value + sub == target) {
                    chosen.push_back(i);
                    h1 = a;
                    h2 = b;
                    j -= m.jokers;
                    taken = true;
                    break;
                }
            }
            if (!taken) {
                remove_one(low, h1, h2);
                kept = true;
            }
        }
    }

    // _best_with_card: the best collection with one meld holding ``card``; its value, -1 if none.
    int best_with_card(u64 h1, u64 h2, int j, bool kept, int card, std::vector<int>& best) {
        int best_value = -1;
        bool any = false;
        std::vector<int> path;
        for (int i : dict_order_) {
            const Cand& m = cands_[i];
            if (!covers(m, card) || !fits(m, h1, h2, j)) continue;
            u64 a = h1, b = h2;
            take(m, a, b);
            const int sub = value(a, b, j - m.jokers, kept);
            if (sub >= 0 && (!any || m.value + sub > best_value)) {
                any = true;
                best_value = m.value + sub;
                value_path(a, b, j - m.jokers, kept, path);
                best.assign(1, i);
                best.insert(best.end(), path.begin(), path.end());
            }
        }
        return any ? best_value : -1;
    }

    // Largest deadwood that disjoint melds remove from the useful naturals and the jokers.
    int gain(u64 h1, u64 h2, int j) {
        h1 &= useful_;
        h2 &= useful_;
        const u64 x = h1 & opener_;
        if (!x) return 0;
        const int low = ctz(x);
        const u64 keep = ~(bit(low) - 1);
        h1 &= keep;
        h2 &= keep;
        bool found;
        Memo::Result* slot = memo_.find(h1, state_b(h2, j, kGain), found);
        if (found) return slot->value;
        Hand r{h1, h2, j};
        r.remove_one(low);
        int best = gain(r.h1, r.h2, j);
        for (int i = first_[low]; i < last_[low]; ++i) {
            const Cand& m = cands_[i];
            if (!fits(m, h1, h2, j)) continue;
            u64 a = h1, b = h2;
            take(m, a, b);
            best = std::max(best, m.gain + gain(a, b, j - m.jokers));
        }
        memo_.find(h1, state_b(h2, j, kGain), found)->value = best;
        return best;
    }

    int max_dv(u64 mask) const {
        int best = kNeg;
        for (u64 x = mask; x; x &= x - 1) best = std::max(best, o_.dv[ctz(x)]);
        return best;
    }

    // The cards of ``mask`` worth exactly ``worth``.
    u64 cards_worth(u64 mask, int worth) const {
        u64 out = 0;
        for (u64 x = mask; x; x &= x - 1)
            if (o_.dv[ctz(x)] == worth) out |= bit(ctz(x));
        return out;
    }

    // Keeps the better of two (value, discards) results, uniting the discards on a tie.
    static void better(Memo::Result& best, int value, u64 mask) {
        if (value > best.value) {
            best = {value, mask};
        } else if (value == best.value) {
            best.mask |= mask;
        }
    }

    // With one discard still owed: the most that melds plus the discarded card's value remove, and
    // every distinct discard (bit 52: a joker) of an optimal choice.
    Memo::Result discard(u64 h1, u64 h2, int j) {
        const u64 x = h1 & opener_;
        if (!x) {
            Memo::Result best{max_dv(h1), 0};
            if (j > 0) best.value = std::max(best.value, o_.dv[kJoker]);
            best.mask = cards_worth(h1, best.value);
            if (j > 0 && o_.dv[kJoker] == best.value) best.mask |= bit(kJoker);
            return best;
        }
        const int low = ctz(x);
        const u64 keep = ~(bit(low) - 1);
        if (h1 & ~keep) {
            // Cards below the lowest opener cannot be melded: keep them, or discard the dearest.
            const int mb = max_dv(h1 & ~keep);
            Memo::Result best = discard(h1 & keep, h2 & keep, j);
            better(best, mb + gain(h1 & keep, h2 & keep, j), cards_worth(h1 & ~keep, mb));
            return best;
        }
        bool found;
        Memo::Result* slot = memo_.find(h1, state_b(h2, j, kDiscard), found);
        if (found) return *slot;
        Hand r{h1, h2, j};
        r.remove_one(low);
        Memo::Result best = discard(r.h1, r.h2, j);
        better(best, o_.dv[low] + gain(r.h1, r.h2, j), bit(low));
        for (int i = first_[low]; i < last_[low]; ++i) {
            const Cand& m = cands_[i];
            if (!fits(m, h1, h2, j)) continue;
            u64 a = h1, b = h2;
            take(m, a, b);
            const Memo::Result sub = discard(a, b, j - m.jokers);
            if (sub.value > kNeg / 2) better(best, m.gain + sub.value, sub.mask);
        }
        *memo_.find(h1, state_b(h2, j, kDiscard), found) = best;
        return best;
    }

    // Largest opening value of disjoint melds; -1 when a card must stay outside (not kept) and cannot.
    int value(u64 h1, u64 h2, int j, bool kept) {
        const u64 x = h1 & opener_;
        if (!x) return (kept || j || h1) ? 0 : -1;
        const int low = ctz(x);
        const u64 keep = ~(bit(low) - 1);
        if (h1 & ~keep) {
            kept = true;  // cards below the opener stay in hand
            h1 &= keep;
            h2 &= keep;
        }
        const Mode mode = kept ? kValueKept : kValueOpen;
        bool found;
        Memo::Result* slot = memo_.find(h1, state_b(h2, j, mode), found);
        if (found) return slot->value;
        Hand r{h1, h2, j};
        r.remove_one(low);
        int best = value(r.h1, r.h2, j, true);
        for (int i = first_[low]; i < last_[low]; ++i) {
            const Cand& m = cands_[i];
            if (!fits(m, h1, h2, j)) continue;
            u64 a = h1, b = h2;
            take(m, a, b);
            const int sub = value(a, b, j - m.jokers, kept);
            if (sub >= 0 && m.value + sub > best) best = m.value + sub;
        }
        memo_.find(h1, state_b(h2, j, mode), found)->value = best;
        return best;
    }

    const Options& o_;
    std::vector<Cand> cands_;
    std::vector<Shape> shapes_;
    std::vector<int> dict_order_;
    std::array<int, kFaces> first_{};
    std::array<int, kFaces> last_{};
    u64 opener_ = 0;
    u64 useful_ = 0;
    Memo memo_;
};

// ---- Lay-offs (rummykit/solver/layoffs.py and rummykit.melds.Meld) --------------------------------

// A table meld: a run (suit >= 0, cards in position order from ``start``) or a set of ``rank``.
struct TableMeld {
    bool run = false;
    int start = 0;
    int suit = -1;
    int rank = 0;
    std::vector<std::int8_t> cards;
    int jokers = 0;
    int end() const { return start + static_cast<int>(cards.size()) - 1; }
};

enum End : int { kNoEnd = -1, kLow = 0, kHigh = 1 };

struct Layoff {
    int card;
    int index;
    int end;
    bool operator==(const Layoff& x) const { return card == x.card && index == x.index && end == x.end; }
};

inline bool joker_count_ok(const Options& o, int naturals, int jokers) {
    return naturals > 0 && naturals < 16 && jokers >= 0 && jokers < 16 && o.joker_ok[naturals][jokers];
}

int longest_joker_streak(const std::vector<std::int8_t>& cards) {
    int best = 0, streak = 0;
    for (int c : cards) {
        streak = c == kJoker ? streak + 1 : 0;
        best = std::max(best, streak);
    }
    return best;
}

// Meld._run_extension: the run after ``card`` goes on ``end``, or false.
bool run_extension(const Options& o, const TableMeld& m, int card, int end, TableMeld* out) {
    const int position = end == kLow ? m.start - 1 : m.end() + 1;
    if (position < o.lo || position > o.hi) return false;
    if (card != kJoker && (card / kRanks != m.suit || (position == kHighAce ? 1 : position) != card % kRanks + 1))
        return false;
    const int new_start = std::min(m.start, position);
    const int new_end = std::max(m.end(), position);
    if (new_start == kLowAce && new_end == kHighAce && !o.both_ends) return false;
    const int jokers = m.jokers + (card == kJoker);
    const int size = static_cast<int>(m.cards.size()) + 1;
    if (!joker_count_ok(o, size - jokers, jokers)) return false;
    TableMeld next;
    next.run = true;
    next.start = new_start;
    next.suit = m.suit;
    next.jokers = jokers;
    next.cards.reserve(size);
    if (end == kLow) next.cards.push_back(static_cast<std::int8_t>(card));
    next.cards.insert(next.cards.end(), m.cards.begin(), m.cards.end());
    if (end == kHigh) next.cards.push_back(static_cast<std::int8_t>(card));
    if (card == kJoker && o.max_adj >= 0 && longest_joker_streak(next.cards) > o.max_adj) return false;
    if (out) *out = std::move(next);
    return true;
}

// Meld._set_extension: the set after ``card`` is added, or false.
bool set_extension(const Options& o, const TableMeld& m, int card, TableMeld* out) {
    const int size = static_cast<int>(m.cards.size()) + 1;
    if (size > o.set_max) return false;
    if (card != kJoker) {
        if (card % kRanks + 1 != m.rank) return false;
        if (o.distinct)
            for (int c : m.cards)
                if (c != kJoker && c / kRanks == card / kRanks) return false;  // suit not missing
    }
    const int naturals = size - m.jokers - (card == kJoker);
    if (!joker_count_ok(o, naturals, size - naturals)) return false;
    if (out) {
        *out = m;
        out->cards.push_back(static_cast<std::int8_t>(card));
        out->jokers += card == kJoker;
    }
    return true;
}

// Meld.layoff_ends: the run ends ``card`` fits (low before high); a joker that fits on top under
// upward_default only there.
int layoff_ends(const Options& o, const TableMeld& m, int card, int ends[2]) {
    int n = 0;
    if (!m.run) return 0;
    for (int e : {kLow, kHigh})
        if (run_extension(o, m, card, e, nullptr)) ends[n++] = e;
    if (card == kJoker && o.joker_upward && n && ends[n - 1] == kHigh) {
        ends[0] = kHigh;
        n = 1;
    }
    return n;
}

// The lay-off search of one call of layoff_chain.
class Chain {
  public:
    Chain(const Options& o, const std::vector<TableMeld>& melds, const std::array<int, kFaces + 1>& points,
          const std::array<int, kFaces + 1>& counts)
        : o_(o), melds_(melds), points_(points), cnt_(counts) {
        const std::size_t n = melds.size();
        relevant_.assign(n, 0);
        later_.assign(n + 1, 0);
        for (std::size_t i = 0; i < n; ++i) {
            u64 r = 0;
            for (int c = 0; c < kFaces; ++c)
                if (cnt_[c] && (melds[i].run ? c / kRanks == melds[i].suit : c % kRanks + 1 == melds[i].rank))
                    r |= bit(c);
            if (cnt_[kJoker]) r |= bit(kJoker);
            relevant_[i] = r;
        }
        for (std::size_t i = n; i-- > 0;) later_[i] = later_[i + 1] | relevant_[i];
    }

    struct Best {
        int n = 0;
        int points = 0;
        std::vector<Layoff> steps;
    };

    const Best& search(std::size_t i) {
        static const Best none;
        if (i == melds_.size()) return none;
        const Key mkey = key(i, later_[i]);
        auto found = memo_.find(mkey);
        if (found != memo_.end()) return found->second;
        Best best = search(i + 1);
        const u64 own = relevant_[i];
        bool any = false;
        for (u64 x = own; x; x &= x - 1) any = any || cnt_[ctz(x)] > 0;
        if (any) {
            const Key okey = key(i, own);
            auto ext = options_.find(okey);
            if (ext == options_.end()) ext = options_.emplace(okey, extensions(i)).first;
            for (const std::vector<Layoff>& steps : ext->second) {
                for (const Layoff& l : steps) --cnt_[l.card];
                const Best& rest = search(i + 1);
                for (const Layoff& l : steps) ++cnt_[l.card];
                int pts = rest.points;
                for (const Layoff& l : steps) pts += points_[l.card];
                const int n = static_cast<int>(steps.size()) + rest.n;
                if (n > best.n || (n == best.n && pts > best.points)) {
                    Best better;
                    better.n = n;
                    better.points = pts;
                    better.steps = steps;
                    better.steps.insert(better.steps.end(), rest.steps.begin(), rest.steps.end());
                    best = std::move(better);
                }
            }
        }
        return memo_.emplace(mkey, std::move(best)).first->second;
    }

  private:
    using Key = std::pair<std::size_t, std::vector<std::int8_t>>;

    Key key(std::size_t i, u64 cards) const {
        Key k{i, {}};
        for (u64 x = cards; x; x &= x - 1) k.second.push_back(static_cast<std::int8_t>(cnt_[ctz(x)]));
        return k;
    }

    // _meld_extensions: every non-empty legal sequence of lay-offs onto meld i, each resulting meld once.
    std::vector<std::vector<Layoff>> extensions(std::size_t i) {
        std::vector<std::vector<Layoff>> out;
        std::set<std::vector<std::int8_t>> seen;
        std::array<int, kFaces + 1> used{};
        std::vector<int> cards;
        for (u64 x = relevant_[i]; x; x &= x - 1)
            if (cnt_[ctz(x)]) cards.push_back(ctz(x));
        std::vector<Layoff> steps;
        grow(melds_[i], static_cast<int>(i), cards, used, steps, seen, out);
        return out;
    }

    void grow(const TableMeld& m, int index, const std::vector<int>& cards, std::array<int, kFaces + 1>& used,
              std::vector<Layoff>& steps, std::set<std::vector<std::int8_t>>& seen,
              std::vector<std::vector<Layoff>>& out) {
        for (int card : cards) {
            if (cnt_[card] - used[card] <= 0) continue;
            int ends[2];
            int count;
            if (m.run) {
                count = layoff_ends(o_, m, card, ends);
            } else {
                ends[0] = kNoEnd;
                count = 1;
            }
            for (int e = 0; e < count; ++e) {
                TableMeld next;
                const bool ok = m.run ? run_extension(o_, m, card, ends[e], &next) : set_extension(o_, m, card, &next);
                if (!ok) continue;
                ++used[card];
                if (seen.insert(next.cards).second) {
                    steps.push_back(Layoff{card, index, ends[e]});
                    out.push_back(steps);
                    grow(next, index, cards, used, steps, seen, out);
                    steps.pop_back();
                }
                --used[card];
            }
        }
    }

    const Options& o_;
    const std::vector<TableMeld>& melds_;
    const std::array<int, kFaces + 1>& points_;
    std::array<int, kFaces + 1> cnt_;
    std::vector<u64> relevant_;
    std::vector<u64> later_;
    std::map<Key, Best> memo_;
    std::map<Key, std::vector<std::vector<Layoff>>> options_;
};

// Per-hand result cache of one thread: direct-mapped, a new result overwrites the slot it hashes to
// (results never go stale, so a lost entry only costs a search).
//
// Its memory follows the work done: no slot exists before the first result, then 2^kCacheMinLog2
// slots, doubled each time the results it has taken since it was (re)allocated reach half its slots
// (a direct-mapped table already loses many entries to collisions at half load), up to
// 2^max_log2 slots. Growing rehashes: the index of a key is the low bits of one hash, so every slot
// of the old table lands on its own slot of the new one (same index or index + old size) and nothing
// is lost; it costs one pass over the old slots, far less than the searches that filled them.
// clear() releases the slots (a cooled or cleared cache costs nothing until it takes a result).
// A slot is 24 bytes (int results) or 40 bytes (discard results).
template <class Value>
class ResultCache {
  public:
    explicit ResultCache(int max_log2) : max_size_(std::size_t{1} << std::max(max_log2, kCacheMinLog2)) {}
    const Value* get(u64 a, u64 b) const {
        if (slots_.empty()) return nullptr;
        const Slot& s = slots_[index(a, b)];
        return s.used && s.a == a && s.b == b ? &s.value : nullptr;
    }
    void put(u64 a, u64 b, const Value& v) {
        if (slots_.empty()) {
            slots_.resize(std::min(std::size_t{1} << kCacheMinLog2, max_size_));  // allocated on first use
            mask_ = slots_.size() - 1;
            taken_ = 0;
        } else if (2 * ++taken_ >= slots_.size() && slots_.size() < max_size_) {
            grow();
        }
        slots_[index(a, b)] = Slot{a, b, v, true};
    }
    void clear() {
        std::vector<Slot>().swap(slots_);  // frees the memory (std::fill kept it)
        mask_ = 0;
        taken_ = 0;
    }
    std::size_t slots() const { return slots_.size(); }

  private:
    struct Slot {
        u64 a = 0;
        u64 b = 0;
        Value value{};
        bool used = false;
    };
    static std::size_t hash(u64 a, u64 b) {
        u64 x = (a ^ (b * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
        return static_cast<std::size_t>(x >> 40);
    }
    std::size_t index(u64 a, u64 b) const { return hash(a, b) & mask_; }
    void grow() {
        std::vector<Slot> old(slots_.size() * 2);
        old.swap(slots_);
        mask_ = slots_.size() - 1;
        for (const Slot& s : old)
            if (s.used) slots_[index(s.a, s.b)] = s;
    }
    std::size_t max_size_;
    std::size_t mask_ = 0;  // slots_.size() - 1, kept (size() divides by sizeof(Slot): 24 or 40)
    std::size_t taken_ = 0;  // results put since the slots were allocated
    std::vector<Slot> slots_;
};

template <class Value, class F>
Value cached(ResultCache<Value>& cache, u64 a, u64 b, F compute) {
    if (const Value* found = cache.get(a, b)) return *found;
    const Value result = compute();
    cache.put(a, b, result);
    return result;
}

inline u64 key_b(const Hand& h, u64 extra = 0) { return h.h2 | static_cast<u64>(h.jokers) << 52 | extra << 60; }

// A search and its result caches. One per Solver (its shared worker_, used under the GIL: up to
// 3 caches x 2^kSolverCacheLog2 slots = 704 KiB), plus one per thread of each knock_races / gin_duels
// batch (rows_in_threads: up to 8 threads x 352 KiB at 2^kThreadCacheLog2 slots, freed when the batch
// returns). rummykit.solver.native keeps the caches of only the HOT_MELD_OPTION_SETS most recently
// used Solvers and clears (frees) the others', so a process holds at most 4 x 704 KiB of shared
// result caches whatever the number of rule sets.
struct Worker {
    Worker(const Options& o, int log2_cache) : search(o), deadwood(log2_cache), discards(log2_cache), opening(log2_cache) {}
    Search search;
    ResultCache<int> deadwood;
    ResultCache<std::pair<int, u64>> discards;
    ResultCache<int> opening;

    void clear() {
        deadwood.clear();
        discards.clear();
        opening.clear();
    }
    int min_deadwood(const Hand& h) {
        return cached(deadwood, h.h1, key_b(h), [&] { return search.min_deadwood(h); });
    }
    std::pair<int, u64> best_discards(const Hand& h) {
        return cached(discards, h.h1, key_b(h), [&] { return search.best_discards(h); });
    }
    int max_opening_value(const Hand& h, bool keep_one) {
        return cached(opening, h.h1, key_b(h, keep_one ? 1 : 0), [&] { return search.max_opening_value(h, keep_one); });
    }
};

// ---- The melding-game race (rummykit.bots.race: meld_turn, meld_race, race_after_draw) -----------

struct MeldRaceRules {
    int minimum;
    bool single;
    bool keep_one;
    bool layoff_on_opening_turn;
    double points_per_turn;
    double closed_turns;
    std::array<int, kFaces + 1> points;
};

struct MeldSeat {
    Hand cards;
    bool opened;
    std::vector<TableMeld> table;
};

TableMeld table_meld_of(const Shape& sh) {
    TableMeld t;
    t.run = sh.run;
    t.start = sh.start;
    t.suit = sh.suit;
    t.rank = sh.rank;
    t.cards.assign(sh.cards.begin(), sh.cards.begin() + sh.n);
    for (int c : t.cards) t.jokers += c == kJoker;
    return t;
}

// Whether the hand holds card code ``c`` (-1: no card).
bool holds(const Hand& h, int c) {
    if (c < 0) return false;
    return c == kJoker ? h.jokers > 0 : (h.h1 >> c) & 1u;
}

void remove_cards(Hand& h, const std::vector<std::int8_t>& cards) {
    for (int c : cards) h.remove_one(c);
}

// race.shed_card: among the best discards the one worth most (card_points, then code), never a
// joker or ``barred`` while anything else may go.
int shed_card(Worker& w, const Hand& h, int barred, const std::array<int, kFaces + 1>& points) {
    const u64 best = w.best_discards(h).second;
    const u64 no = (barred >= 0 ? bit(barred) : 0) | bit(kJoker);
    u64 usable = best & ~no;
    if (!usable) {
        u64 held = h.h1 | (h.jokers ? bit(kJoker) : 0);
        usable = held & ~no;
        if (!usable) usable = held & ~(barred >= 0 ? bit(barred) : 0);
        if (!usable) usable = held;
    }
    int shed = -1;
    for (u64 x = usable; x; x &= x - 1) {
        const int c = ctz(x);
        if (shed < 0 || points[c] > points[shed] || (points[c] == points[shed] && c > shed)) shed = c;
    }
    return shed;
}

// race.meld_turn: one own turn after drawing ``card``; true when the seat goes out in it.
bool meld_turn(Worker& w, const Options& o, MeldSeat& st, int card, int barred, const MeldRaceRules& rr) {
    if (!st.cards.add(card)) throw std::invalid_argument("a face drawn a third time");
    bool opened_now = false;
    if (!st.opened) {
        if (!rr.minimum || w.max_opening_value(st.cards, rr.keep_one) >= rr.minimum) {
            std::vector<int> chosen;
            const bool some = w.max_opening_value(st.cards, rr.keep_one) >= std::max(rr.minimum, 1) &&
                              w.search.best_opening(st.cards, rr.keep_one, -1, rr.single, rr.minimum, chosen);
            if (some && !chosen.empty()) {
                for (int i : chosen) {
                    TableMeld m = table_meld_of(w.search.shapes()[w.search.cands()[i].shape]);
                    remove_cards(st.cards, m.cards);
                    st.table.push_back(std::move(m));
                }
                st.opened = opened_now = true;
            }
        }
    } else {
        Hand left = st.cards;
        std::vector<int> chosen;
        w.search.best_arrangement(left, chosen);
        for (int i : chosen) {
            TableMeld m = table_meld_of(w.search.shapes()[w.search.cands()[i].shape]);
            if (rr.keep_one && st.cards.size() <= static_cast<int>(m.cards.size())) break;
            remove_cards(st.cards, m.cards);
            st.table.push_back(std::move(m));
        }
    }
    if (st.opened && !st.table.empty() && st.cards.size() && (!opened_now || rr.layoff_on_opening_turn)) {
        std::array<int, kFaces + 1> counts{};
        for (u64 x = st.cards.h1; x; x &= x - 1) counts[ctz(x)] = 1 + static_cast<int>((st.cards.h2 >> ctz(x)) & 1u);
        counts[kJoker] = st.cards.jokers;
        const std::vector<Layoff> steps = Chain(o, st.table, rr.points, counts).search(0).steps;
        for (const Layoff& l : steps) {
            if (rr.keep_one && st.cards.size() <= 1) break;
            TableMeld& m = st.table[l.index];
            TableMeld next;
            const bool ok = m.run ? run_extension(o, m, l.card, l.end, &next) : set_extension(o, m, l.card, &next);
            if (!ok) throw std::logic_error("a lay-off of the chain does not fit");
            m = std::move(next);
            st.cards.remove_one(l.card);
        }
    }
    const int size = st.cards.size();
    if (st.opened && (size == 0 || (size == 1 && !holds(st.cards, barred)))) return true;
    st.cards.remove_one(shed_card(w, st.cards, barred, rr.points));
    return false;
}

// race.meld_race after an optional first turn drawing ``first`` (race_after_draw: 0 when that turn
// gets home).
double meld_race(Worker& w, const Options& o, MeldSeat st, int first, int barred, const std::vector<int>& draws,
                 const MeldRaceRules& rr) {
    if (first >= 0 && meld_turn(w, o, st, first, barred, rr)) return 0.0;
    const int n = static_cast<int>(draws.size());
    for (int turn = 1; turn <= n; ++turn)
        if (meld_turn(w, o, st, draws[turn - 1], -1, rr)) return turn;
    const int left = st.cards.size() ? w.min_deadwood(st.cards) : 0;
    return static_cast<double>(n + 1) + left / rr.points_per_turn + (st.opened ? 0.0 : rr.closed_turns);
}

struct RaceRules {
    int threshold;
    bool less_than;  // knock_comparison "lt"
    double points_per_turn;
    bool draw_aware;  // race.race_shed with live cards
    u64 live;         // the cards that may still come (natural card codes)
    int out_margin;   // race.OUT_MARGIN: most deadwood above the least a draw-aware discard may leave
    double out_weight;  // race.OUT_WEIGHT: deadwood points per live out
};

// race.out_mask: the card codes that would form a meld of three with two natural cards of ``held``
// (two suited neighbours on allowed run positions, or set_min - 1 cards of the rank).
u64 out_mask(const Options& o, u64 held) {
    const unsigned valid = ((1u << (o.hi + 1)) - 1) & ~((1u << o.lo) - 1);
    const unsigned suit_ranks = (1u << kRanks) - 1;
    u64 outs = 0;
    for (int s = 0; s < 4; ++s) {
        const unsigned ranks = static_cast<unsigned>(held >> (kRanks * s)) & suit_ranks;
        const unsigned pos = ((ranks << 1) | ((ranks & 1u) << (kRanks + 1))) & valid;
        const unsigned near = (((pos >> 1) & (pos >> 2)) | ((pos << 1) & (pos >> 1)) | ((pos << 1) & (pos << 2))) & valid;
        outs |= static_cast<u64>(((near >> 1) | (near >> (kRanks + 1))) & suit_ranks) << (kRanks * s);
    }
    for (int r = 0; r < kRanks; ++r) {
        int count = 0;
        for (int s = 0; s < 4; ++s) count += static_cast<int>((held >> (kRanks * s + r)) & 1u);
        for (int s = 0; s < 4; ++s) {
            const int mine = static_cast<int>((held >> (kRanks * s + r)) & 1u);
            if (count - (o.distinct ? mine : 0) >= o.set_min - 1) outs |= bit(kRanks * s + r);
        }
    }
    return outs;
}

// rummykit.bots.race.knock_race: own turns until the hand can call Rummy or knock.
double knock_race(Worker& w, const Options& o, Hand h, const int* draws, int count, const RaceRules& rr) {
    u64 live = rr.live;
    for (int turn = 1; turn <= count; ++turn) {
        if (!h.add(draws[turn - 1])) throw std::invalid_argument("a face drawn a third time");
        const auto [d, discards] = w.best_discards(h);
        if (d == 0 || (rr.less_than ? d < rr.threshold : d <= rr.threshold)) return turn;
        if (draws[turn - 1] != kJoker) live &= ~bit(draws[turn - 1]);
        // race_shed (draw-aware): the natural card leaving at most out_margin above the least
        // deadwood with the best deadwood less out_weight per live out, then the one worth most.
        int shed = kJoker;
        if (rr.draw_aware) {
            double shed_key = 0;
            // A discard of c leaves at least min_deadwood(h) - dv[c], and exactly that when c is
            // deadwood of an optimal arrangement of h; so only melded cards that may come within the
            // margin are searched (the answers are the Python twin's).
            const int whole = w.min_deadwood(h);
            Hand loose = h;
            std::vector<int> chosen;
            w.search.best_arrangement(loose, chosen);
            for (u64 x = h.h1; x; x &= x - 1) {
                const int c = ctz(x);
                if (whole - o.dv[c] > d + rr.out_margin) continue;
                Hand rest = h;
                rest.remove_one(c);
                const int left = holds(loose, c) ? whole - o.dv[c] : w.min_deadwood(rest);
                if (left > d + rr.out_margin) continue;
                const double key = rr.out_weight * popcount(out_mask(o, rest.h1) & live) - left;
                if (shed == kJoker || key > shed_key ||
                    (key == shed_key && (o.dv[c] > o.dv[shed] || (o.dv[c] == o.dv[shed] && c > shed)))) {
                    shed = c;
                    shed_key = key;
                }
            }
        }
        if (shed == kJoker) {
            // shed_card: among the best discards the one worth most, never a joker (no barred card).
            u64 usable = discards & ~bit(kJoker);
            if (!usable) usable = h.h1;
            for (u64 x = usable; x; x &= x - 1) {
                const int c = ctz(x);
                if (shed == kJoker || o.dv[c] > o.dv[shed] || (o.dv[c] == o.dv[shed] && c > shed)) shed = c;
            }
        }
        h.remove_one(shed);
    }
    const int left = h.size() ? w.min_deadwood(h) : 0;
    return count + 1 + left / rr.points_per_turn;
}

// ---- Gin duels (rummykit.bots.gin_duel): this seat against the simple rule bot, turn by turn. ----

struct DuelRules {
    int threshold;
    bool less_than;     // knock_comparison "lt"
    bool barred_taken;  // the card just taken from the discard pile may not be discarded again
    int turns;          // gin_duel.DUEL_TURNS
    double drawn;       // gin_duel.DRAWN
};

// gin_duel.knocks: eleven cards allow a knock (or gin) after the best discard.
bool duel_knocks(Worker& w, const Hand& h, const DuelRules& dr) {
    const int d = w.best_discards(h).first;
    return d == 0 || (dr.less_than ? d < dr.threshold : d <= dr.threshold);
}

// gin_duel.opponent_takes (both seats' take rule).
bool duel_takes(Worker& w, const Options& o, const Hand& h, int up, const DuelRules& dr) {
    Hand with_up = h;
    with_up.add(up);
    if (duel_knocks(w, with_up, dr)) return true;
    return w.min_deadwood(with_up) < w.min_deadwood(h) + o.dv[up];
}

// gin_duel.opponent_discard: the highest rank (then code) among the best discards, never ``barred``.
int duel_opponent_discard(Worker& w, const Hand& h, int barred) {
    u64 usable = w.best_discards(h).second & ~(barred >= 0 ? bit(barred) : 0);
    if (!usable) usable = h.h1 & ~(barred >= 0 ? bit(barred) : 0);
    int best = -1;
    for (u64 x = usable; x; x &= x - 1) {
        const int c = ctz(x);
        if (best < 0 || c % kRanks > best % kRanks || (c % kRanks == best % kRanks && c > best)) best = c;
    }
    return best;
}

// gin_duel.own_discard: the best discard worth most (then code), never ``barred``; else the other card
// leaving the least deadwood (then worth most, then the highest code).
int duel_own_discard(Worker& w, const Options& o, const Hand& h, int barred) {
    const u64 no_barred = ~(barred >= 0 ? bit(barred) : 0);
    const u64 usable = w.best_discards(h).second & no_barred;
    int best = -1;
    for (u64 x = usable; x; x &= x - 1) {
        const int c = ctz(x);
        if (best < 0 || o.dv[c] > o.dv[best] || (o.dv[c] == o.dv[best] && c > best)) best = c;
    }
    if (best >= 0) return best;
    int best_left = 0;
    for (u64 x = h.h1 & no_barred; x; x &= x - 1) {
        const int c = ctz(x);
        Hand rest = h;
        rest.remove_one(c);
        const int left = w.min_deadwood(rest);
        if (best < 0 || left < best_left || (left == best_left && (o.dv[c] > o.dv[best] || (o.dv[c] == o.dv[best] && c > best)))) {
            best = c;
            best_left = left;
        }
    }
    return best;
}

// gin_duel.gin_duel: 1 when this seat knocks first, 0 when the opponent does, dr.drawn otherwise.
double gin_duel(Worker& w, const Options& o, Hand ours, int up, Hand theirs, const std::vector<int>& stock,
                const DuelRules& dr) {
    const std::size_t n = stock.size();
    std::size_t next = 0;
    auto draw = [&](Hand& h, int c) {
        if (!h.add(c)) throw std::invalid_argument("a face drawn a third time");
    };
    if (up < 0) {
        if (n == 0) return dr.drawn;
        draw(ours, stock[next++]);
        if (duel_knocks(w, ours, dr)) return 1.0;
        up = duel_own_discard(w, o, ours, -1);
        ours.remove_one(up);
    }
    for (int turn = 0; turn < dr.turns; ++turn) {
        for (int seat = 0; seat < 2; ++seat) {  // the opponent, then this seat
            Hand& h = seat == 0 ? theirs : ours;
            int barred = -1;
            if (duel_takes(w, o, h, up, dr)) {
                draw(h, up);
                if (dr.barred_taken) barred = up;
            } else if (next < n) {
                draw(h, stock[next++]);
            } else {
                return dr.drawn;
            }
            if (duel_knocks(w, h, dr)) return seat == 0 ? 0.0 : 1.0;
            up = seat == 0 ? duel_opponent_discard(w, h, barred) : duel_own_discard(w, o, h, barred);
            h.remove_one(up);
        }
    }
    return dr.drawn;
}

// ---- End of gin duels. ----

[[noreturn]] void bad_card(const std::string& why) { throw py::value_error(why); }

// rummykit.cards notation of a natural card: rank then suit letter (7H, 10D, AS).
std::string card_text(int c) {
    static const char* const ranks[] = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};
    return std::string(ranks[c % kRanks]) + "CDHS"[c / kRanks];
}

Hand read_hand(py::handle cards) {
    Hand h;
    PyObject* seq = PySequence_Fast(cards.ptr(), "cards must be an iterable of card codes");
    if (!seq) throw py::error_already_set();
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject** items = PySequence_Fast_ITEMS(seq);
    std::string error;
    for (Py_ssize_t i = 0; i < n && error.empty(); ++i) {
        const long c = PyLong_AsLong(items[i]);
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            throw py::error_already_set();
        }
        if (c < 0 || c > kJoker) {
            error = "no card has code " + std::to_string(c) + ": codes run from 0 to 52";
        } else if (!h.add(static_cast<int>(c))) {
            error = "a hand may hold at most two copies of a face, not more of " + card_text(static_cast<int>(c));
        } else if (h.jokers > kMaxJokers) {
            error = "at most " + std::to_string(kMaxJokers) + " jokers per hand";
        }
    }
    Py_DECREF(seq);
    if (!error.empty()) bad_card(error);
    return h;
}

std::vector<int> read_codes(py::handle cards) {
    std::vector<int> out;
    for (py::handle item : py::reinterpret_borrow<py::sequence>(cards)) {
        const long c = PyLong_AsLong(item.ptr());
        if (c == -1 && PyErr_Occurred()) throw py::error_already_set();
        if (c < 0 || c > kJoker) bad_card("no card has code " + std::to_string(c) + ": codes run from 0 to 52");
        out.push_back(static_cast<int>(c));
    }
    return out;
}

// The objects returned for card codes (rummykit's Card instances, set once by set_cards).
py::tuple& card_objects() {
    static py::tuple* cards = new py::tuple();  // never destroyed: lives as long as the interpreter
    return *cards;
}

py::tuple discard_cards(u64 mask) {
    const py::tuple& cards = card_objects();
    py::tuple out(popcount(mask));
    int i = 0;
    for (u64 x = mask; x; x &= x - 1) {
        const int c = ctz(x);
        out[i++] = static_cast<std::size_t>(c) < cards.size() ? py::object(cards[c]) : py::object(py::int_(c));
    }
    return out;
}

// Table melds read from rummykit.melds.Meld objects (kind, cards, start, suit, rank).
std::vector<TableMeld> read_melds(py::handle melds) {
    static const py::str* run_kind = new py::str("run");
    std::vector<TableMeld> out;
    for (py::handle m : py::reinterpret_borrow<py::sequence>(melds)) {
        TableMeld t;
        const py::object kind = m.attr("kind");
        const int same = PyObject_RichCompareBool(kind.ptr(), run_kind->ptr(), Py_EQ);
        if (same < 0) throw py::error_already_set();
        t.run = same == 1;
        t.start = m.attr("start").cast<int>();
        t.suit = m.attr("suit").cast<int>();
        t.rank = m.attr("rank").cast<int>();
        for (int c : read_codes(m.attr("cards"))) {
            t.cards.push_back(static_cast<std::int8_t>(c));
            t.jokers += c == kJoker;
        }
        if (t.cards.empty() || t.cards.size() > 32 || (t.run && (t.suit < 0 || t.suit > 3)))
            throw py::value_error("not a meld");
        out.push_back(std::move(t));
    }
    return out;
}

// A lay-off as Python's (Card, index, end): end "low", "high" or None (a set).
py::tuple layoff_object(const Layoff& l) {
    static const py::str* low = new py::str("low");
    static const py::str* high = new py::str("high");
    const py::tuple& cards = card_objects();
    py::object card = static_cast<std::size_t>(l.card) < cards.size() ? py::object(cards[l.card]) : py::object(py::int_(l.card));
    py::object end = l.end == kNoEnd ? py::object(py::none()) : py::object(l.end == kLow ? *low : *high);
    return py::make_tuple(card, l.index, end);
}

// Layouts of chosen candidates: (is_run, card codes, start, suit, rank, value) each.
py::tuple shapes_of(const Search& search, const std::vector<int>& chosen) {
    py::tuple out(chosen.size());
    for (std::size_t i = 0; i < chosen.size(); ++i) {
        const Shape& sh = search.shapes()[search.cands()[chosen[i]].shape];
        py::tuple codes(sh.n);
        for (int t = 0; t < sh.n; ++t) codes[t] = py::int_(static_cast<int>(sh.cards[t]));
        out[i] = py::make_tuple(sh.run, codes, sh.start, sh.suit, sh.rank, sh.value);
    }
    return out;
}

class Solver {
  public:
    Solver(int lo, int hi, bool both_ends, int max_adj, int set_min, int set_max, bool distinct,
           const std::vector<bool>& joker_ok, const std::vector<int>& dv, bool joker_upward) {
        if (lo < kLowAce || hi > kHighAce || hi - lo < 2 || set_min < 1 || set_max > 16 ||
            joker_ok.size() != 256 || dv.size() != kFaces + 1 || max_adj < -1)
            throw py::value_error("invalid meld options");
        o_.lo = lo;
        o_.hi = hi;
        o_.both_ends = both_ends;
        o_.max_adj = max_adj;
        o_.set_min = set_min;
        o_.set_max = set_max;
        o_.distinct = distinct;
        o_.joker_upward = joker_upward;
        for (int n = 0; n < 16; ++n)
            for (int k = 0; k < 16; ++k) o_.joker_ok[n][k] = joker_ok[16 * n + k];
        for (int c = 0; c <= kFaces; ++c) o_.dv[c] = dv[c];
        worker_ = std::make_unique<Worker>(o_, kSolverCacheLog2);
    }

    int min_deadwood(py::handle cards) { return worker_->min_deadwood(read_hand(cards)); }

    py::tuple best_discards(py::handle cards) {
        const Hand h = read_hand(cards);
        if (!h.size()) throw py::value_error("best_discards needs at least one card");
        const auto [d, mask] = worker_->best_discards(h);
        return py::make_tuple(d, discard_cards(mask));
    }

    int max_opening_value(py::handle cards, bool keep_one) {
        return worker_->max_opening_value(read_hand(cards), keep_one);
    }

    // Empties the per-hand result caches and frees their memory (they start small again).
    void clear_caches() { worker_->clear(); }

    // Allocated slots of the shared worker's result caches (deadwood, discards, opening): 0 when freed.
    py::tuple cache_slots() const {
        return py::make_tuple(worker_->deadwood.slots(), worker_->discards.slots(), worker_->opening.slots());
    }

    // The melds of api.best_opening as layouts (see shapes_of), or None when none qualifies.
    py::object best_opening(py::handle cards, bool keep_one, int must_include, bool single, int minimum) {
        const Hand h = read_hand(cards);
        if (must_include < -1 || must_include > kJoker) bad_card("no card has code " + std::to_string(must_include));
        std::vector<int> chosen;
        if (!worker_->search.best_opening(h, keep_one, must_include, single, minimum, chosen)) return py::none();
        return shapes_of(worker_->search, chosen);
    }

    // candidates.all_melds: every layout of a valid meld formable from the hand, as Card tuples.
    py::list all_melds(py::handle cards) {
        const Hand h = read_hand(cards);
        std::vector<Cand> unused;
        std::vector<Shape> shapes;
        Ordered(o_, unused, shapes).all_layouts(h);
        const py::tuple& objects = card_objects();
        py::list out(shapes.size());
        for (std::size_t i = 0; i < shapes.size(); ++i) {
            py::tuple meld(shapes[i].n);
            for (int t = 0; t < shapes[i].n; ++t) {
                const int c = shapes[i].cards[t];
                meld[t] = static_cast<std::size_t>(c) < objects.size() ? py::object(objects[c]) : py::object(py::int_(c));
            }
            out[i] = std::move(meld);
        }
        return out;
    }

    // race.race_after_draw / race.meld_race of a melding-game seat (``first`` -1: no first draw).
    double meld_race(py::handle cards, bool opened, py::handle table, py::handle draws, int first, int barred,
                     int minimum, bool single, bool keep_one, bool layoff_on_opening_turn, const std::vector<int>& points,
                     double points_per_turn, double closed_turns) {
        if (points.size() != kFaces + 1 || points_per_turn <= 0) throw py::value_error("invalid race parameters");
        if (first < -1 || first > kJoker || barred < -1 || barred > kJoker) throw py::value_error("no such card");
        MeldRaceRules rr{minimum, single, keep_one, layoff_on_opening_turn, points_per_turn, closed_turns, {}};
        std::copy(points.begin(), points.end(), rr.points.begin());
        MeldSeat st{read_hand(cards), opened, read_melds(table)};
        const std::vector<int> ds = read_codes(draws);
        try {
            return ::meld_race(*worker_, o_, std::move(st), first, barred, ds, rr);
        } catch (const std::invalid_argument& e) {
            throw py::value_error(e.what());
        }
    }

    // layoff_targets: (card, meld index, end) for every distinct card and table meld it fits.
    py::list layoff_targets(py::handle hand, py::handle melds) {
        const Hand h = read_hand(hand);
        const std::vector<TableMeld> table = read_melds(melds);
        py::list out;
        u64 distinct = h.h1 | (h.jokers ? bit(kJoker) : 0);
        for (; distinct; distinct &= distinct - 1) {
            const int c = ctz(distinct);
            for (std::size_t i = 0; i < table.size(); ++i) {
                if (!table[i].run) {
                    if (set_extension(o_, table[i], c, nullptr)) out.append(layoff_object(Layoff{c, static_cast<int>(i), kNoEnd}));
                    continue;
                }
                int ends[2];
                const int n = layoff_ends(o_, table[i], c, ends);
                for (int e = 0; e < n; ++e) out.append(layoff_object(Layoff{c, static_cast<int>(i), ends[e]}));
            }
        }
        return out;
    }

    // layoff_chain: a largest legal sequence of lay-offs (``points``: card_points per card code).
    py::tuple layoff_chain(py::handle hand, py::handle melds, const std::vector<int>& points) {
        const Hand h = read_hand(hand);
        const std::vector<TableMeld> table = read_melds(melds);
        if (points.size() != kFaces + 1) throw py::value_error("points: one value per card code 0-52");
        std::array<int, kFaces + 1> pts{};
        std::copy(points.begin(), points.end(), pts.begin());
        std::array<int, kFaces + 1> counts{};
        for (u64 x = h.h1; x; x &= x - 1) counts[ctz(x)] = 1 + static_cast<int>((h.h2 >> ctz(x)) & 1u);
        counts[kJoker] = h.jokers;
        Chain chain(o_, table, pts, counts);
        const std::vector<Layoff>& steps = chain.search(0).steps;
        py::tuple out(steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i) out[i] = layoff_object(steps[i]);
        return out;
    }

    // api.best_arrangement: (layouts of the melds, the cards left over, their deadwood).
    py::tuple best_arrangement(py::handle cards) {
        Hand h = read_hand(cards);
        std::vector<int> chosen;
        worker_->search.best_arrangement(h, chosen);
        const py::tuple& objects = card_objects();
        py::tuple left(h.size());
        int i = 0;
        auto put = [&](int c) {
            left[i++] = static_cast<std::size_t>(c) < objects.size() ? py::object(objects[c]) : py::object(py::int_(c));
        };
        for (u64 x = h.h1; x; x &= x - 1) {
            const int c = ctz(x);
            put(c);
            if (h.h2 & bit(c)) put(c);
        }
        for (int k = 0; k < h.jokers; ++k) put(kJoker);
        return py::make_tuple(shapes_of(worker_->search, chosen), left, worker_->search.total(h));
    }

    // knock_race of every hand on every stock (its first ``draws`` cards), as rows per stock. The
    // play-outs run without the GIL, split over ``threads`` threads (each with its own caches).
    // ``draw_aware``: race_shed with ``live`` (card codes that may still come; jokers are ignored).
    std::vector<std::vector<double>> knock_races(py::handle hands, py::handle stocks, int draws, int threshold,
                                                 bool less_than, double points_per_turn, int threads,
                                                 bool draw_aware, py::handle live, int out_margin, double out_weight) {
        std::vector<Hand> hs;
        for (py::handle hand : py::reinterpret_borrow<py::sequence>(hands)) hs.push_back(read_hand(hand));
        std::vector<std::vector<int>> ss;
        for (py::handle stock : py::reinterpret_borrow<py::sequence>(stocks)) ss.push_back(read_codes(stock));
        if (draws < 0 || points_per_turn <= 0) throw py::value_error("invalid race parameters");
        u64 live_mask = 0;
        for (int c : read_codes(live))
            if (c != kJoker) live_mask |= bit(c);
        const RaceRules rr{threshold, less_than, points_per_turn, draw_aware, live_mask, out_margin, out_weight};
        return rows_in_threads(ss.size(), hs.size(), threads, [&](Worker& w, std::size_t s, std::size_t i) {
            const int count = std::min<int>(draws, static_cast<int>(ss[s].size()));
            return knock_race(w, o_, hs[i], ss[s].data(), count, rr);
        });
    }

    // gin_duel of every (hand, up) against every opponent hand with its stock, as rows per opponent
    // hand (up < 0: this seat draws first). Without the GIL, split over ``threads`` threads.
    std::vector<std::vector<double>> gin_duels(py::handle hands, const std::vector<int>& ups, py::handle opponents,
                                               py::handle stocks, int threshold, bool less_than, bool barred_taken,
                                               int turns, double drawn, int threads) {
        std::vector<Hand> hs;
        for (py::handle hand : py::reinterpret_borrow<py::sequence>(hands)) hs.push_back(read_hand(hand));
        std::vector<Hand> os;
        for (py::handle hand : py::reinterpret_borrow<py::sequence>(opponents)) os.push_back(read_hand(hand));
        std::vector<std::vector<int>> ss;
        for (py::handle stock : py::reinterpret_borrow<py::sequence>(stocks)) ss.push_back(read_codes(stock));
        if (ups.size() != hs.size() || os.size() != ss.size() || turns < 0)
            throw py::value_error("invalid duel parameters");
        for (int up : ups)
            if (up >= 52) throw py::value_error("an upcard must be a natural card");
        const DuelRules dr{threshold, less_than, barred_taken, turns, drawn};
        return rows_in_threads(ss.size(), hs.size(), threads, [&](Worker& w, std::size_t s, std::size_t i) {
            return gin_duel(w, o_, hs[i], ups[i], os[s], ss[s], dr);
        });
    }

  private:
    // ``cell(w, row, column)`` for every row and column, as rows, without the GIL: rows are split over
    // ``threads`` threads (at most 8 and the row count), each with its own Worker and caches (never the
    // shared worker: other Python threads may use it now); the first error is raised afterwards.
    template <typename Cell>
    std::vector<std::vector<double>> rows_in_threads(std::size_t rows, std::size_t columns, int threads, Cell cell) {
        std::vector<std::vector<double>> out(rows, std::vector<double>(columns));
        threads = std::max(1, std::min({threads, 8, static_cast<int>(rows)}));
        std::vector<std::string> errors(threads);
        {
            py::gil_scoped_release release;
            auto run = [&](int part) {
                try {
                    Worker w(o_, kThreadCacheLog2);
                    for (std::size_t r = part; r < rows; r += threads)
                        for (std::size_t c = 0; c < columns; ++c) out[r][c] = cell(w, r, c);
                } catch (const std::exception& e) {
                    errors[part] = e.what();
                }
            };
            std::vector<std::thread> pool;
            for (int part = 1; part < threads; ++part) pool.emplace_back(run, part);
            run(0);
            for (std::thread& t : pool) t.join();
        }
        for (const std::string& e : errors)
            if (!e.empty()) throw py::value_error(e);
        return out;
    }

    Options o_;
    std::unique_ptr<Worker> worker_;
};

}  // namespace

#ifndef RUMMYKIT_SOURCE_DIGEST
#define RUMMYKIT_SOURCE_DIGEST ""
#endif

PYBIND11_MODULE(_native, m) {
    m.doc() = "Compiled meld-search kernels of rummykit (see rummykit.solver.native).";
    m.attr("SOURCE_DIGEST") = RUMMYKIT_SOURCE_DIGEST;  // SHA-256 of this file, from setup.py
    py::class_<Solver>(m, "Solver", py::dynamic_attr())
        .def(py::init<int, int, bool, int, int, int, bool, const std::vector<bool>&, const std::vector<int>&, bool>(),
             py::arg("lo"), py::arg("hi"), py::arg("both_ends"), py::arg("max_adjacent_jokers"),
             py::arg("set_min"), py::arg("set_max"), py::arg("distinct"), py::arg("joker_ok"),
             py::arg("deadwood_values"), py::arg("joker_upward") = false)
        .def("all_melds", &Solver::all_melds, py::arg("cards"))
        .def("meld_race", &Solver::meld_race, py::arg("cards"), py::arg("opened"), py::arg("table"), py::arg("draws"),
             py::arg("first"), py::arg("barred"), py::arg("minimum"), py::arg("single"), py::arg("keep_one"),
             py::arg("layoff_on_opening_turn"), py::arg("points"), py::arg("points_per_turn"), py::arg("closed_turns"))
        .def("layoff_targets", &Solver::layoff_targets, py::arg("hand"), py::arg("melds"))
        .def("layoff_chain", &Solver::layoff_chain, py::arg("hand"), py::arg("melds"), py::arg("points"))
        .def("min_deadwood", &Solver::min_deadwood, py::arg("cards"))
        .def("best_discards", &Solver::best_discards, py::arg("cards"))
        .def("max_opening_value", &Solver::max_opening_value, py::arg("cards"), py::arg("keep_one"))
        .def("clear_caches", &Solver::clear_caches)
        .def("cache_slots", &Solver::cache_slots)
        .def("best_opening", &Solver::best_opening, py::arg("cards"), py::arg("keep_one"), py::arg("must_include"),
             py::arg("single"), py::arg("minimum"))
        .def("best_arrangement", &Solver::best_arrangement, py::arg("cards"))
        .def("knock_races", &Solver::knock_races, py::arg("hands"), py::arg("stocks"), py::arg("draws"),
             py::arg("threshold"), py::arg("less_than"), py::arg("points_per_turn"), py::arg("threads") = 1,
             py::arg("draw_aware") = false, py::arg("live") = py::tuple(), py::arg("out_margin") = 0,
             py::arg("out_weight") = 0.0)
        .def("gin_duels", &Solver::gin_duels, py::arg("hands"), py::arg("ups"), py::arg("opponents"),
             py::arg("stocks"), py::arg("threshold"), py::arg("less_than"), py::arg("barred_taken"),
             py::arg("turns"), py::arg("drawn"), py::arg("threads") = 1);
    m.attr("MAX_JOKERS") = kMaxJokers;
    m.def(
        "set_cards", [](py::tuple cards) { card_objects() = std::move(cards); }, py::arg("cards"),
        "The objects best_discards returns for card codes 0-52 (plain ints until set).");
}
