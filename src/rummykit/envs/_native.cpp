// The compiled twins of the environments' observation encoder (rummykit.envs.observation) and of
// the trie of the simplest decisions (rummykit.envs.encoding).
//
// ObsEncoder.encode_state writes one seat's observation vector (every block but the action so far
// and the derived features) from a round's own state, reading exactly the fields that
// observation.Encoder.encode_state reads, with the same float32 values bit for bit: every value is
// computed in double as Python computes it and rounded to float32 once, the pile's recency in
// float32 as NumPy computes it. Blocks are rewritten from their source each call (cheap here), the
// table melds only when a slot holds another meld object than before (melds are immutable).
// ObsEncoder.observation returns a copy of the vector with the action spelled so far written in
// (observation.encode_prefix). ShortComposer is encoding.Composer for the decisions whose candidates
// are all spelled as a verb alone or a verb and one card. RUMMYKIT_PURE=1, or a build without a
// compiler, runs the Python twins.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace py = pybind11;

namespace {

constexpr int C = 53;             // card codes: 0-51 naturals, 52 the joker
constexpr int M = 36;             // table-meld slots
constexpr int SEAT_FEATURES = 8;  // per-seat block, per seat
constexpr int GIN_HEAD = 9;       // the gin block's values before the previous upcard
// Token ids of the action encoding (rummykit.envs.encoding; a test pins them against it).
constexpr int NUM_VERBS = 11;
constexpr int CARD0 = 11;
constexpr int NEXT = CARD0 + C;
constexpr int LOW = NEXT + 1;
constexpr int HIGH = NEXT + 2;
constexpr int THEN_MELD = NEXT + 3;
constexpr int THEN_LAYOFF = NEXT + 4;
constexpr int DONE = NEXT + 5;
constexpr int TARGET0 = DONE + 1;
constexpr int NUM_TOKENS = TARGET0 + M + 1;  // PASS is the last token

// An owned reference; a null one means a Python error is set.
class Ref {
 public:
  explicit Ref(PyObject* p) : p_(p) {
    if (p_ == nullptr) throw py::error_already_set();
  }
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  ~Ref() { Py_XDECREF(p_); }
  PyObject* get() const { return p_; }

 private:
  PyObject* p_;
};

PyObject* interned(const char* name) {
  PyObject* s = PyUnicode_InternFromString(name);
  if (s == nullptr) throw py::error_already_set();
  return s;  // kept for the life of the module
}

struct Names {
  PyObject *hands, *known_cards, *phase, *knocker, *melds, *discard_pile, *taken_discard, *must_lay,
      *result, *points, *opened_turn, *active_seats, *extra_turns, *stock, *stock_rebuilds, *turn,
      *to_move, *gin, *counts, *size, *meld, *owner, *cards, *is_run, *start, *end, *knock_card,
      *upcard_passes, *upcard_draws, *prev_upcard, *repeated, *layoffs, *layoffs_done, *totals,
      *chips, *pot, *hands_dealt, *buyback_pending, *is_match, *takes_in_a_row, *doubled;
};

const Names& names() {
  static const Names n{
      interned("hands"), interned("known_cards"), interned("phase"), interned("knocker"),
      interned("melds"), interned("discard_pile"), interned("taken_discard"), interned("must_lay"),
      interned("result"), interned("points"), interned("opened_turn"), interned("active_seats"),
      interned("extra_turns"), interned("stock"), interned("stock_rebuilds"), interned("turn"),
      interned("to_move"), interned("gin"), interned("_counts"), interned("_size"), interned("meld"),
      interned("owner"), interned("cards"), interned("is_run"), interned("start"), interned("end"),
      interned("knock_card"), interned("upcard_passes"), interned("upcard_draws"),
      interned("prev_upcard"), interned("repeated"), interned("layoffs"), interned("layoffs_done"),
      interned("totals"), interned("chips"), interned("pot"), interned("hands_dealt"),
      interned("buyback_pending"), interned("is_match"), interned("takes_in_a_row"),
      interned("doubled")};
  return n;
}

PyObject* attr(PyObject* obj, PyObject* name) { return PyObject_GetAttr(obj, name); }

PyObject* none() {
  Py_INCREF(Py_None);
  return Py_None;
}

long as_long(PyObject* obj) {
  long v = PyLong_AsLong(obj);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return v;
}

long long_attr(PyObject* obj, PyObject* name) {
  Ref v(attr(obj, name));
  return as_long(v.get());
}

bool truth(PyObject* obj) {
  int t = PyObject_IsTrue(obj);
  if (t < 0) throw py::error_already_set();
  return t == 1;
}

bool bool_attr(PyObject* obj, PyObject* name) {
  Ref v(attr(obj, name));
  return truth(v.get());
}

// A list or tuple seen as an array of borrowed items (PySequence_Fast).
class Items {
 public:
  explicit Items(PyObject* seq) : ref_(PySequence_Fast(seq, "a sequence is expected")) {}
  Py_ssize_t size() const { return PySequence_Fast_GET_SIZE(ref_.get()); }
  PyObject* operator[](Py_ssize_t i) const { return PySequence_Fast_GET_ITEM(ref_.get(), i); }
  PyObject* checked(Py_ssize_t i) const {
    if (i < 0 || i >= size()) {
      PyErr_SetString(PyExc_IndexError, "list index out of range");
      throw py::error_already_set();
    }
    return (*this)[i];
  }

 private:
  Ref ref_;
};

bool contains(const Items& items, long value) {
  for (Py_ssize_t i = 0; i < items.size(); ++i) {
    PyObject* item = items[i];
    if (PyLong_Check(item) && as_long(item) == value) return true;
  }
  return false;
}

float f32(double value) { return static_cast<float>(value); }

int relative(long seat, long me, int seats) {
  long k = (seat - me) % seats;
  return static_cast<int>(k < 0 ? k + seats : k);
}

class ObsEncoder {
 public:
  ObsEncoder(int seats, int table, int pile, int taken, int per_seat, int prefix, int gin_block,
             int take_block, int doubled_block, int size, bool gin, bool take_bound, bool doubled,
             int deck_size, int max_upcard_draws, int max_takes_in_a_row, py::tuple phases,
             py::tuple gin_phases)
      : seats_(seats), slot_(C + 4 + seats), table_(table), pile_(pile), taken_(taken),
        per_seat_(per_seat), prefix_(prefix), gin_block_(gin_block), take_block_(take_block),
        doubled_block_(doubled_block), size_(size), gin_(gin), take_bound_(take_bound), doubled_(doubled),
        deck_size_(deck_size), max_upcard_draws_(max_upcard_draws), max_takes_in_a_row_(max_takes_in_a_row),
        out_(size) {
    if (phases.size() != 4 || gin_phases.size() != 4) throw py::value_error("four phases of each kind");
    if (seats < 1 || size < prefix || table + M * slot_ > pile) throw py::value_error("bad layout");
    if (take_bound && (take_block < prefix || take_block >= size)) throw py::value_error("bad layout");
    // The doubled entry is written with the gin block, from the same GinInfo.
    if (doubled && (!gin || doubled_block < gin_block + GIN_HEAD + 2 * C || doubled_block >= size))
      throw py::value_error("bad layout");
    for (int i = 0; i < 4; ++i) {
      phases_[i] = phases[i];
      gin_phases_[i] = gin_phases[i];
    }
    std::memset(out_.mutable_data(), 0, sizeof(float) * static_cast<size_t>(size));
  }

  py::array_t<float> out() const { return out_; }

  void encode_state(const py::object& state_obj, long me, const py::object& figures_obj) {
    const Names& n = names();
    PyObject* state = state_obj.ptr();
    float* o = out_.mutable_data();
    Ref hands_ref(attr(state, n.hands));
    Items hands(hands_ref.get());
    Ref phase(attr(state, n.phase));
    const bool over = phase.get() == phases_[3].ptr();
    Ref knocker_ref(attr(state, n.knocker));
    const long knocker = knocker_ref.get() == Py_None ? -1 : as_long(knocker_ref.get());

    write_hand_counts(o, 0, hands.checked(me));
    Ref known_ref(attr(state, n.known_cards));
    Items known(known_ref.get());
    for (int k = 1; k < seats_; ++k) {
      const long other = (me + k) % seats_;
      write_hand_counts(o, k * C, over || other == knocker ? hands.checked(other) : known.checked(other));
    }
    write_melds(o, state, me);
    write_pile(o, state);
    write_taken(o, state, over);
    write_seats_and_globals(o, state, me, hands, phase.get(), over, knocker, figures_obj.ptr());
    if (gin_) write_gin(o, state, phase.get());
    if (take_bound_) {
      o[take_block_] = f32(static_cast<double>(long_attr(state, n.takes_in_a_row)) /
                           static_cast<double>(std::max(1, max_takes_in_a_row_)));
    }
  }

  // A copy of the vector with the action spelled so far (``tokens``, may be None) written in.
  py::array_t<float> observation(const py::object& tokens_obj) const {
    py::array_t<float> copy(size_);
    float* o = copy.mutable_data();
    std::memcpy(o, out_.data(), sizeof(float) * static_cast<size_t>(size_));
    if (!tokens_obj.is_none()) {
      Items tokens(tokens_obj.ptr());
      std::vector<long> values(static_cast<size_t>(tokens.size()));
      for (Py_ssize_t i = 0; i < tokens.size(); ++i) values[static_cast<size_t>(i)] = as_long(tokens[i]);
      write_prefix(o + prefix_, values);
    }
    return copy;
  }

 private:
  void write_hand_counts(float* o, int start, PyObject* hand) const {
    Ref counts_ref(attr(hand, names().counts));
    Items counts(counts_ref.get());
    if (counts.size() != C) throw py::value_error("a hand counts 53 card codes");
    for (int c = 0; c < C; ++c) o[start + c] = f32(static_cast<double>(as_long(counts[c])));
  }

  void write_melds(float* o, PyObject* state, long me) {
    const Names& n = names();
    Ref melds_ref(attr(state, n.melds));
    Items melds(melds_ref.get());
    const size_t count = static_cast<size_t>(std::min<Py_ssize_t>(melds.size(), M));
    const size_t old = written_melds_.size();
    std::vector<py::object> now;
    now.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      PyObject* tm = melds[static_cast<Py_ssize_t>(i)];
      now.push_back(py::reinterpret_borrow<py::object>(tm));
      if (i < old && written_melds_[i].ptr() == tm) continue;
      float* s = o + table_ + static_cast<int>(i) * slot_;
      std::fill(s, s + slot_, 0.0f);
      Ref meld(attr(tm, n.meld));
      Ref cards_ref(attr(meld.get(), n.cards));
      Items cards(cards_ref.get());
      for (Py_ssize_t j = 0; j < cards.size(); ++j) {
        const long c = as_long(cards[j]);
        if (c < 0 || c >= C) throw py::value_error("card code out of range");
        s[c] += 1.0f;
      }
      s[C] = 1.0f;
      if (bool_attr(meld.get(), n.is_run)) {
        s[C + 1] = 1.0f;
        s[C + 2] = f32(static_cast<double>(long_attr(meld.get(), n.start)) / 14.0);
        s[C + 3] = f32(static_cast<double>(long_attr(meld.get(), n.end)) / 14.0);
      }
      s[C + 4 + relative(long_attr(tm, n.owner), me, seats_)] = 1.0f;
    }
    for (size_t i = count; i < old; ++i) {  // a new hand of a match: its table starts empty
      float* s = o + table_ + static_cast<int>(i) * slot_;
      std::fill(s, s + slot_, 0.0f);
    }
    written_melds_.swap(now);
  }

  // Counts, and per face 1 / (n - i) with i the index of its topmost copy (0 when absent), in
  // float32 as NumPy computes it.
  void write_pile(float* o, PyObject* state) const {
    Ref pile_ref(attr(state, names().discard_pile));
    Items pile(pile_ref.get());
    float* counts = o + pile_;
    float* recency = counts + C;
    float top[C];
    std::fill(counts, counts + C, 0.0f);
    std::fill(top, top + C, -std::numeric_limits<float>::infinity());
    const Py_ssize_t size = pile.size();
    for (Py_ssize_t i = 0; i < size; ++i) {
      const long c = as_long(pile[i]);
      if (c < 0 || c >= C) throw py::value_error("card code out of range");
      counts[c] += 1.0f;
      top[c] = static_cast<float>(i);
    }
    const float n = static_cast<float>(size);
    for (int c = 0; c < C; ++c) {
      volatile float depth = n - top[c];  // rounded to float32 before the division, as NumPy does
      recency[c] = 1.0f / depth;
    }
  }

  void write_taken(float* o, PyObject* state, bool over) const {
    const Names& n = names();
    float* s = o + taken_;
    std::fill(s, s + 2 * C, 0.0f);
    if (!over) {
      Ref taken(attr(state, n.taken_discard));
      if (taken.get() != Py_None) s[card(taken.get())] = 1.0f;
    }
    Ref must_lay(attr(state, n.must_lay));
    if (must_lay.get() != Py_None) s[C + card(must_lay.get())] = 1.0f;
  }

  void write_seats_and_globals(float* o, PyObject* state, long me, const Items& hands, PyObject* phase,
                               bool over, long knocker, PyObject* figures) const {
    const Names& n = names();
    Ref opened_ref(attr(state, n.opened_turn));
    Items opened(opened_ref.get());
    Ref active_ref(attr(state, n.active_seats));
    Items active(active_ref.get());
    Ref extra_ref(attr(state, n.extra_turns));
    Items extra(extra_ref.get());
    Ref result(attr(state, n.result));
    const bool scored = result.get() != Py_None;
    Ref points_ref(scored ? attr(result.get(), n.points) : none());
    const bool match = figures != Py_None;
    Ref totals_ref(match ? attr(figures, n.totals) : none());
    Ref chips_ref(match ? attr(figures, n.chips) : none());
    float* base = o + per_seat_;
    for (int k = 0; k < seats_; ++k) {
      const long seat = (me + k) % seats_;
      float* s = base + SEAT_FEATURES * k;
      s[0] = f32(static_cast<double>(long_attr(hands.checked(seat), n.size)) / 20.0);
      s[1] = opened.checked(seat) != Py_None ? 1.0f : 0.0f;
      s[2] = contains(active, seat) ? 1.0f : 0.0f;
      s[3] = knocker == seat ? 1.0f : 0.0f;
      s[4] = contains(extra, seat) ? 1.0f : 0.0f;
      s[5] = scored ? hundredths(Items(points_ref.get()).checked(seat)) : 0.0f;
      s[6] = match ? hundredths(Items(totals_ref.get()).checked(seat)) : 0.0f;
      s[7] = match ? hundredths(Items(chips_ref.get()).checked(seat)) : 0.0f;
    }
    float* g = base + SEAT_FEATURES * seats_;
    for (int i = 0; i < 4; ++i) g[i] = phase == phases_[i].ptr() ? 1.0f : 0.0f;
    const long to_move = long_attr(state, n.to_move);
    g[4] = !over && to_move == me ? 1.0f : 0.0f;
    g[5] = match && bool_attr(figures, n.buyback_pending) ? 1.0f : 0.0f;
    Ref stock(attr(state, n.stock));
    const Py_ssize_t stock_size = PyObject_Length(stock.get());
    if (stock_size < 0) throw py::error_already_set();
    g[6] = f32(static_cast<double>(stock_size) / static_cast<double>(deck_size_));
    g[7] = f32(static_cast<double>(long_attr(state, n.stock_rebuilds)));
    g[8] = f32(static_cast<double>(long_attr(state, n.turn)) / 100.0);
    g[9] = match ? f32(static_cast<double>(long_attr(figures, n.pot)) / 100.0) : 0.0f;
    g[10] = match ? f32(static_cast<double>(long_attr(figures, n.hands_dealt)) / 10.0) : 0.0f;
    g[11] = match && bool_attr(figures, n.is_match) ? 1.0f : 0.0f;
    float* who = g + 12;
    std::fill(who, who + seats_, 0.0f);
    who[relative(to_move, me, seats_)] = 1.0f;
  }

  void write_gin(float* o, PyObject* state, PyObject* phase) {
    const Names& n = names();
    Ref gin(attr(state, n.gin));
    if (gin_written_ && gin.get() == gin_source_.ptr() && phase == gin_phase_source_.ptr()) return;
    float* s = o + gin_block_;
    std::fill(s, s + GIN_HEAD + 2 * C, 0.0f);
    for (int i = 0; i < 4; ++i)
      if (phase == gin_phases_[i].ptr()) s[i] = 1.0f;
    PyObject* g = gin.get();
    if (g != Py_None) {
      s[4] = f32(static_cast<double>(long_attr(g, n.knock_card)) / 10.0);
      s[5] = f32(static_cast<double>(long_attr(g, n.upcard_passes)) / 2.0);
      s[6] = f32(static_cast<double>(long_attr(g, n.upcard_draws)) /
                 static_cast<double>(std::max(1, max_upcard_draws_)));
      s[7] = bool_attr(g, n.repeated) ? 1.0f : 0.0f;
      s[8] = bool_attr(g, n.layoffs_done) ? 1.0f : 0.0f;
      Ref prev(attr(g, n.prev_upcard));
      if (prev.get() != Py_None) s[GIN_HEAD + card(prev.get())] = 1.0f;
      Ref layoffs_ref(attr(g, n.layoffs));
      Items layoffs(layoffs_ref.get());
      for (Py_ssize_t i = 0; i < layoffs.size(); ++i) s[GIN_HEAD + C + card(layoffs[i])] += 1.0f;
    }
    if (doubled_) o[doubled_block_] = g != Py_None && bool_attr(g, n.doubled) ? 1.0f : 0.0f;
    gin_source_ = py::reinterpret_borrow<py::object>(g);
    gin_phase_source_ = py::reinterpret_borrow<py::object>(phase);
    gin_written_ = true;
  }

  static int card(PyObject* obj) {
    const long c = as_long(obj);
    if (c < 0 || c >= C) throw py::value_error("card code out of range");
    return static_cast<int>(c);
  }

  static float hundredths(PyObject* value) { return f32(static_cast<double>(as_long(value)) / 100.0); }

  // observation.encode_prefix on a cleared action block.
  static void write_prefix(float* out, const std::vector<long>& tokens) {
    if (tokens.empty()) return;
    const long verb = tokens[0];
    if (verb < 0 || verb >= NUM_VERBS + C) throw py::value_error("token out of range");
    out[verb] = 1.0f;
    float* current = out + NUM_VERBS;
    float* earlier = current + C;
    float* last = earlier + C;
    float* target = last + C;
    float* flags = target + M;
    int closed = 0;
    int spelled = 0;
    for (size_t i = 1; i < tokens.size(); ++i) {
      const long t = tokens[i];
      if (CARD0 <= t && t < NEXT) {
        current[t - CARD0] += 1.0f;
        std::fill(last, last + C, 0.0f);
        last[t - CARD0] = 1.0f;
        ++spelled;
      } else if (t == NEXT || t == THEN_MELD || t == THEN_LAYOFF || t >= TARGET0) {
        for (int c = 0; c < C; ++c) earlier[c] += current[c];
        std::fill(current, current + C, 0.0f);
        if (t == NEXT) {
          ++closed;
        } else if (t >= TARGET0) {
          if (t - TARGET0 >= M) throw py::value_error("token out of range");
          std::fill(target, target + M, 0.0f);
          target[t - TARGET0] = 1.0f;
        } else {
          flags[2 + (t == THEN_LAYOFF ? 1 : 0)] = 1.0f;
        }
      } else if (t == LOW || t == HIGH) {
        flags[t == HIGH ? 1 : 0] = 1.0f;
      }
    }
    flags[4] = f32(static_cast<double>(closed) / 4.0);
    flags[5] = f32(static_cast<double>(spelled) / 14.0);
  }

  int seats_, slot_, table_, pile_, taken_, per_seat_, prefix_, gin_block_, take_block_, doubled_block_,
      size_;
  bool gin_, take_bound_, doubled_;
  int deck_size_, max_upcard_draws_, max_takes_in_a_row_;
  py::object phases_[4];      // draw, play, discard, over
  py::object gin_phases_[4];  // first upcard, wall, knock, lay-off
  py::array_t<float> out_;
  std::vector<py::object> written_melds_;  // the table melds the slots hold (kept alive: identity)
  py::object gin_source_, gin_phase_source_;
  bool gin_written_ = false;
};

// The trie of a decision whose candidates are all spelled as a verb alone or a verb and one card
// (encoding._short_children: draws, takes, discards, knocks …): the root's verbs in the order they
// first appear, below a verb with a card its cards (a card offered twice keeps the later action).
struct ShortTrie {
  struct Verb {
    int token;
    py::object action;  // the verb alone; None for a verb with cards
    std::vector<std::pair<int, py::object>> cards;  // card token, action
    std::array<int, C> at;                          // index in cards per card, -1 when absent
  };
  std::vector<Verb> verbs;
  std::array<int, NUM_TOKENS> at;  // index in verbs per token, -1 when absent
  py::object masked_out;           // raises the error of a masked-out token
};

// encoding.Composer over a ShortTrie: the same answers for every method.
class ShortComposer {
 public:
  ShortComposer(std::shared_ptr<const ShortTrie> trie, int verb, bool leaf, py::list tokens)
      : trie_(std::move(trie)), verb_(verb), leaf_(leaf), tokens_(std::move(tokens)) {}

  // The composer of ``actions``, or None when one is not spelled as a verb or a verb and a card
  // (``spec``: per action class its first token and whether a card follows), or when a verb comes
  // both alone and with a card, or alone twice (left to the Python trie, as _short_children does).
  static py::object build(const py::sequence& actions, const py::dict& spec, const py::object& masked_out) {
    auto trie = std::make_shared<ShortTrie>();
    trie->at.fill(-1);
    trie->masked_out = masked_out;
    static PyObject* card_name = interned("card");
    const Items items(actions.ptr());
    for (Py_ssize_t i = 0; i < items.size(); ++i) {
      PyObject* action = items[i];
      PyObject* entry = PyDict_GetItemWithError(spec.ptr(), reinterpret_cast<PyObject*>(Py_TYPE(action)));
      if (entry == nullptr) {
        if (PyErr_Occurred()) throw py::error_already_set();
        return py::none();
      }
      const Items pair(entry);
      const long token = as_long(pair.checked(0));
      const bool with_card = truth(pair.checked(1));
      if (token < 0 || token >= NUM_TOKENS) return py::none();
      int index = trie->at[static_cast<size_t>(token)];
      if (!with_card) {
        if (index >= 0) return py::none();
        trie->at[static_cast<size_t>(token)] = static_cast<int>(trie->verbs.size());
        trie->verbs.push_back({static_cast<int>(token), py::reinterpret_borrow<py::object>(action), {}, {}});
        continue;
      }
      if (index < 0) {
        index = static_cast<int>(trie->verbs.size());
        trie->at[static_cast<size_t>(token)] = index;
        trie->verbs.push_back({static_cast<int>(token), py::none(), {}, {}});
        trie->verbs.back().at.fill(-1);
      } else if (!trie->verbs[static_cast<size_t>(index)].action.is_none()) {
        return py::none();
      }
      ShortTrie::Verb& verb = trie->verbs[static_cast<size_t>(index)];
      const long card = long_attr(action, card_name);
      if (card < 0 || card >= C) return py::none();
      int& slot = verb.at[static_cast<size_t>(card)];
      if (slot >= 0) {
        verb.cards[static_cast<size_t>(slot)].second = py::reinterpret_borrow<py::object>(action);
      } else {
        slot = static_cast<int>(verb.cards.size());
        verb.cards.emplace_back(CARD0 + static_cast<int>(card), py::reinterpret_borrow<py::object>(action));
      }
    }
    return py::cast(ShortComposer(std::move(trie), -1, false, py::list()));
  }

  py::list tokens() const { return tokens_; }
  bool is_empty() const { return trie_->verbs.empty(); }

  py::list allowed() const {
    std::vector<int> out = children();
    std::sort(out.begin(), out.end());
    py::list list(out.size());
    for (size_t i = 0; i < out.size(); ++i) PyList_SET_ITEM(list.ptr(), i, PyLong_FromLong(out[i]));
    return list;
  }

  py::array_t<int8_t> mask() const {
    py::array_t<int8_t> out(NUM_TOKENS);
    int8_t* m = out.mutable_data();
    std::memset(m, 0, NUM_TOKENS);
    for (int token : children()) m[token] = 1;
    return out;
  }

  bool is_allowed(long token) const { return find(token) != nullptr; }

  py::object step(long token) {
    const py::object* action = find(token);
    if (action == nullptr) {
      trie_->masked_out(token);  // raises
      throw py::value_error("masked-out token");
    }
    tokens_.append(token);
    if (verb_ < 0) {
      const int index = trie_->at[static_cast<size_t>(token)];
      const ShortTrie::Verb& verb = trie_->verbs[static_cast<size_t>(index)];
      if (!verb.action.is_none()) {
        leaf_ = true;
        return verb.action;
      }
      verb_ = index;
      return py::none();
    }
    leaf_ = true;
    return *action;
  }

  ShortComposer copy() const {
    Ref tokens(PyList_GetSlice(tokens_.ptr(), 0, PyList_GET_SIZE(tokens_.ptr())));  // a new list
    return ShortComposer(trie_, verb_, leaf_, py::reinterpret_borrow<py::list>(tokens.get()));
  }

  // Composer.reachable: a depth-first walk that takes the last child first.
  py::list reachable() const {
    py::list out;
    if (leaf_) {
      if (verb_ < 0) {
        out.append(trie_->verbs[static_cast<size_t>(trie_->at[static_cast<size_t>(last_token())])].action);
      } else {
        const ShortTrie::Verb& verb = trie_->verbs[static_cast<size_t>(verb_)];
        out.append(verb.cards[static_cast<size_t>(verb.at[static_cast<size_t>(last_token() - CARD0)])].second);
      }
      return out;
    }
    auto below = [&out](const ShortTrie::Verb& verb) {
      for (auto it = verb.cards.rbegin(); it != verb.cards.rend(); ++it) out.append(it->second);
    };
    if (verb_ >= 0) {
      below(trie_->verbs[static_cast<size_t>(verb_)]);
      return out;
    }
    for (auto it = trie_->verbs.rbegin(); it != trie_->verbs.rend(); ++it) {
      if (!it->action.is_none()) {
        out.append(it->action);
      } else {
        below(*it);
      }
    }
    return out;
  }

 private:
  long last_token() const { return as_long(PyList_GET_ITEM(tokens_.ptr(), PyList_GET_SIZE(tokens_.ptr()) - 1)); }

  std::vector<int> children() const {
    std::vector<int> out;
    if (leaf_) return out;
    if (verb_ < 0) {
      for (const auto& verb : trie_->verbs) out.push_back(verb.token);
    } else {
      for (const auto& card : trie_->verbs[static_cast<size_t>(verb_)].cards) out.push_back(card.first);
    }
    return out;
  }

  // The action below ``token`` (or, for a verb with cards, a non-null marker), null when masked out.
  const py::object* find(long token) const {
    if (leaf_ || token < 0 || token >= NUM_TOKENS) return nullptr;
    if (verb_ < 0) {
      const int index = trie_->at[static_cast<size_t>(token)];
      return index < 0 ? nullptr : &trie_->verbs[static_cast<size_t>(index)].action;
    }
    if (token < CARD0 || token >= CARD0 + C) return nullptr;
    const ShortTrie::Verb& verb = trie_->verbs[static_cast<size_t>(verb_)];
    const int slot = verb.at[static_cast<size_t>(token - CARD0)];
    return slot < 0 ? nullptr : &verb.cards[static_cast<size_t>(slot)].second;
  }

  std::shared_ptr<const ShortTrie> trie_;
  int verb_;   // -1 at the root, else the verb stepped into (one with cards)
  bool leaf_;  // an action was completed
  py::list tokens_;
};

// encoding.search_openings: the collections of two or more melds that fit in the cards left, in
// index order (depth first), each given to ``judge`` with its melds sorted as Python sorts tuples of
// card codes (stably); the actions it returns, until ``limit`` are found or ``budget`` collections
// were tried.
class OpeningSearch {
 public:
  OpeningSearch(const py::sequence& melds, const py::sequence& left, long held, long budget, long limit,
                py::object judge)
      : held_(held), budget_(budget), limit_(limit), judge_(std::move(judge)) {
    const Items counts(left.ptr());
    if (counts.size() != C) throw py::value_error("the cards left are counted per card code (53)");
    for (int c = 0; c < C; ++c) left_[static_cast<size_t>(c)] = as_long(counts[c]);
    const Items items(melds.ptr());
    for (Py_ssize_t i = 0; i < items.size(); ++i) {
      melds_.push_back(py::reinterpret_borrow<py::object>(items[i]));
      const Items cards(items[i]);
      std::vector<long> codes;
      std::vector<std::pair<int, long>> need;  // card, copies: in the order of first appearance
      for (Py_ssize_t j = 0; j < cards.size(); ++j) {
        const int c = card_code(cards[j]);
        codes.push_back(c);
        auto it = std::find_if(need.begin(), need.end(), [c](const auto& n) { return n.first == c; });
        if (it == need.end()) {
          need.emplace_back(c, 1);
        } else {
          ++it->second;
        }
      }
      codes_.push_back(std::move(codes));
      needs_.push_back(std::move(need));
    }
  }

  py::list run() {
    extend(0);
    return found_;
  }

 private:
  static int card_code(PyObject* obj) {
    const long c = as_long(obj);
    if (c < 0 || c >= C) throw py::value_error("card code out of range");
    return static_cast<int>(c);
  }

  bool extend(size_t start) {
    for (size_t i = start; i < melds_.size(); ++i) {
      const auto& need = needs_[i];
      bool fits = true;
      for (const auto& [c, n] : need) {
        if (left_[static_cast<size_t>(c)] < n) {
          fits = false;
          break;
        }
      }
      if (!fits) continue;
      if (--budget_ < 0) return true;
      for (const auto& [c, n] : need) left_[static_cast<size_t>(c)] -= n;
      const long size = static_cast<long>(codes_[i].size());
      held_ -= size;
      chosen_.push_back(i);
      if (chosen_.size() > 1) {
        std::vector<size_t> order = chosen_;
        std::stable_sort(order.begin(), order.end(), [this](size_t a, size_t b) {
          return std::lexicographical_compare(codes_[a].begin(), codes_[a].end(), codes_[b].begin(),
                                              codes_[b].end());
        });
        py::tuple sorted(order.size());
        for (size_t k = 0; k < order.size(); ++k) sorted[k] = melds_[order[k]];
        py::object opening = judge_(sorted);
        if (!opening.is_none()) {
          found_.append(opening);
          if (static_cast<long>(found_.size()) >= limit_) return true;
        }
      }
      if (held_ != 0 && extend(i + 1)) return true;
      chosen_.pop_back();
      held_ += size;
      for (const auto& [c, n] : need) left_[static_cast<size_t>(c)] += n;
    }
    return false;
  }

  std::vector<py::object> melds_;
  std::vector<std::vector<long>> codes_;
  std::vector<std::vector<std::pair<int, long>>> needs_;
  std::array<long, C> left_{};
  long held_, budget_, limit_;
  py::object judge_;
  std::vector<size_t> chosen_;
  py::list found_;
};

py::list search_openings(const py::sequence& melds, const py::sequence& left, long held, long budget, long limit,
                         py::object judge) {
  return OpeningSearch(melds, left, held, budget, limit, std::move(judge)).run();
}

}  // namespace

#ifndef RUMMYKIT_SOURCE_DIGEST
#define RUMMYKIT_SOURCE_DIGEST ""
#endif

PYBIND11_MODULE(_native, m) {
  m.doc() = "Compiled twins of the environments' observation encoder and simplest decisions' trie.";
  m.attr("SOURCE_DIGEST") = RUMMYKIT_SOURCE_DIGEST;  // SHA-256 of this file, from setup.py
  m.attr("TOKENS") = py::make_tuple(NUM_VERBS, CARD0, NEXT, LOW, HIGH, THEN_MELD, THEN_LAYOFF, DONE, TARGET0);
  m.attr("SIZES") = py::make_tuple(C, M, SEAT_FEATURES, GIN_HEAD);
  py::class_<ObsEncoder>(m, "ObsEncoder")
      .def(py::init<int, int, int, int, int, int, int, int, int, int, bool, bool, bool, int, int, int,
                    py::tuple, py::tuple>(),
           py::arg("seats"), py::arg("table"), py::arg("pile"), py::arg("taken"), py::arg("per_seat"),
           py::arg("prefix"), py::arg("gin_block"), py::arg("take_block"), py::arg("doubled_block"),
           py::arg("size"), py::arg("gin"), py::arg("take_bound"), py::arg("doubled"), py::arg("deck_size"),
           py::arg("max_upcard_draws"),
           py::arg("max_takes_in_a_row"), py::arg("phases"), py::arg("gin_phases"))
      .def_property_readonly("out", &ObsEncoder::out)
      .def("encode_state", &ObsEncoder::encode_state, py::arg("state"), py::arg("seat"), py::arg("figures"))
      .def("observation", &ObsEncoder::observation, py::arg("tokens"));
  m.def("search_openings", &search_openings, py::arg("melds"), py::arg("left"), py::arg("held"),
        py::arg("budget"), py::arg("limit"), py::arg("judge"));
  py::class_<ShortComposer>(m, "ShortComposer")
      .def_static("build", &ShortComposer::build, py::arg("actions"), py::arg("spec"), py::arg("masked_out"))
      .def_property_readonly("tokens", &ShortComposer::tokens)
      .def_property_readonly("is_empty", &ShortComposer::is_empty)
      .def("allowed", &ShortComposer::allowed)
      .def("mask", &ShortComposer::mask)
      .def("is_allowed", &ShortComposer::is_allowed, py::arg("token"))
      .def("step", &ShortComposer::step, py::arg("token"))
      .def("copy", &ShortComposer::copy)
      .def("reachable", &ShortComposer::reachable);
}
