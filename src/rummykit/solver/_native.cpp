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
constexpr int kLowAce = 1;
constexpr int kHighAce = 14;
constexpr int kMaxJokers = 63;  // joker counts above this are left to the Python twin
constexpr int kNeg = -(1 << 28);
constexpr std::size_t kMaxCache = std::size_t{1} << 17;

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
                        if (!n) continue;
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
    std::array<int, kFaces> first_{};
    std::array<int, kFaces> last_{};
    u64 opener_ = 0;
    u64 useful_ = 0;
    Memo memo_;
};

// Per-hand result cache of one thread: direct-mapped, a new result overwrites the slot it hashes to
// (results never go stale, so a lost entry only costs a search).
template <class Value>
class ResultCache {
  public:
    explicit ResultCache(int log2_size) : size_(std::size_t{1} << log2_size) {}
    const Value* get(u64 a, u64 b) const {
        if (slots_.empty()) return nullptr;
        const Slot& s = slots_[index(a, b)];
        return s.used && s.a == a && s.b == b ? &s.value : nullptr;
    }
    void put(u64 a, u64 b, const Value& v) {
        if (slots_.empty()) slots_.resize(size_);  // allocated on first use
        slots_[index(a, b)] = Slot{a, b, v, true};
    }
    void clear() { std::fill(slots_.begin(), slots_.end(), Slot{}); }

  private:
    struct Slot {
        u64 a = 0;
        u64 b = 0;
        Value value{};
        bool used = false;
    };
    std::size_t index(u64 a, u64 b) const {
        u64 x = (a ^ (b * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
        return static_cast<std::size_t>(x >> 40) & (size_ - 1);
    }
    std::size_t size_;
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

struct RaceRules {
    int threshold;
    bool less_than;  // knock_comparison "lt"
    double points_per_turn;
};

// rummykit.bots.race.knock_race: own turns until the hand can call Rummy or knock.
double knock_race(Worker& w, const Options& o, Hand h, const int* draws, int count, const RaceRules& rr) {
    for (int turn = 1; turn <= count; ++turn) {
        if (!h.add(draws[turn - 1])) throw std::invalid_argument("a face drawn a third time");
        const auto [d, discards] = w.best_discards(h);
        if (d == 0 || (rr.less_than ? d < rr.threshold : d <= rr.threshold)) return turn;
        // shed_card: among the best discards the one worth most, never a joker (no barred card).
        u64 usable = discards & ~bit(kJoker);
        if (!usable) usable = h.h1;
        int shed = kJoker;
        for (u64 x = usable; x; x &= x - 1) {
            const int c = ctz(x);
            if (shed == kJoker || o.dv[c] > o.dv[shed] || (o.dv[c] == o.dv[shed] && c > shed)) shed = c;
        }
        h.remove_one(shed);
    }
    const int left = h.size() ? w.min_deadwood(h) : 0;
    return count + 1 + left / rr.points_per_turn;
}

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

class Solver {
  public:
    Solver(int lo, int hi, bool both_ends, int max_adj, int set_min, int set_max, bool distinct,
           const std::vector<bool>& joker_ok, const std::vector<int>& dv) {
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
        for (int n = 0; n < 16; ++n)
            for (int k = 0; k < 16; ++k) o_.joker_ok[n][k] = joker_ok[16 * n + k];
        for (int c = 0; c <= kFaces; ++c) o_.dv[c] = dv[c];
        worker_ = std::make_unique<Worker>(o_, 13);
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

    void clear_caches() { worker_->clear(); }

    // knock_race of every hand on every stock (its first ``draws`` cards), as rows per stock. The
    // play-outs run without the GIL, split over ``threads`` threads (each with its own caches).
    std::vector<std::vector<double>> knock_races(py::handle hands, py::handle stocks, int draws, int threshold,
                                                 bool less_than, double points_per_turn, int threads) {
        std::vector<Hand> hs;
        for (py::handle hand : py::reinterpret_borrow<py::sequence>(hands)) hs.push_back(read_hand(hand));
        std::vector<std::vector<int>> ss;
        for (py::handle stock : py::reinterpret_borrow<py::sequence>(stocks)) ss.push_back(read_codes(stock));
        if (draws < 0 || points_per_turn <= 0) throw py::value_error("invalid race parameters");
        const RaceRules rr{threshold, less_than, points_per_turn};
        std::vector<std::vector<double>> out(ss.size(), std::vector<double>(hs.size()));
        threads = std::max(1, std::min({threads, 8, static_cast<int>(ss.size())}));
        std::vector<std::string> errors(threads);
        {
            py::gil_scoped_release release;
            auto run = [&](int part) {
                try {
                    Worker w(o_, 12);  // never the shared worker: other Python threads may use it now
                    for (std::size_t s = part; s < ss.size(); s += threads) {
                        const int count = std::min<int>(draws, static_cast<int>(ss[s].size()));
                        for (std::size_t i = 0; i < hs.size(); ++i)
                            out[s][i] = knock_race(w, o_, hs[i], ss[s].data(), count, rr);
                    }
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

  private:
    Options o_;
    std::unique_ptr<Worker> worker_;
};

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "Compiled meld-search kernels of rummykit (see rummykit.solver.native).";
    py::class_<Solver>(m, "Solver")
        .def(py::init<int, int, bool, int, int, int, bool, const std::vector<bool>&, const std::vector<int>&>(),
             py::arg("lo"), py::arg("hi"), py::arg("both_ends"), py::arg("max_adjacent_jokers"),
             py::arg("set_min"), py::arg("set_max"), py::arg("distinct"), py::arg("joker_ok"),
             py::arg("deadwood_values"))
        .def("min_deadwood", &Solver::min_deadwood, py::arg("cards"))
        .def("best_discards", &Solver::best_discards, py::arg("cards"))
        .def("max_opening_value", &Solver::max_opening_value, py::arg("cards"), py::arg("keep_one"))
        .def("clear_caches", &Solver::clear_caches)
        .def("knock_races", &Solver::knock_races, py::arg("hands"), py::arg("stocks"), py::arg("draws"),
             py::arg("threshold"), py::arg("less_than"), py::arg("points_per_turn"), py::arg("threads") = 1);
    m.attr("MAX_JOKERS") = kMaxJokers;
    m.def(
        "set_cards", [](py::tuple cards) { card_objects() = std::move(cards); }, py::arg("cards"),
        "The objects best_discards returns for card codes 0-52 (plain ints until set).");
}
