/* check.c: the checks of `--provider cpu --check`, called by instrumented kernels.
 *
 * Every access of an instrumented kernel to global or shared memory calls
 * `__gpuir_check_access` first, and every work-item calls `__gpuir_check_barrier` at each
 * barrier of its group (gpuir/lowering/cpu/check_accesses.py). `__gpuir_check_access` is LLVM IR
 * inlined into the kernel (check_accesses.py's FAST_PATH): it does the commonest case itself
 * on the state `gpuir_check_fast` (owners, below) and calls `__gpuir_check_slow`, here, for
 * the rest. Groups run one after another, their
 * items in order, as under `interp`. An access is *suspect* when it is not within a live
 * allocation, or when it may race with an earlier access of the launch: then the launch stops
 * (the abort function jumps back like a fault) and the provider runs it again under `interp`,
 * from the device memory it had before, which names the first bad access exactly
 * (gpuir/runtime/cpu/). Suspicion may be wrong, never the other way round: every race that
 * interp reports is suspect here. Before the first write of a launch to some bytes, what they
 * held goes into an undo log, which puts the memory back for that second run.
 *
 * Races. Each aligned 4-byte word has a cell (in a table of chunks of 64 Ki words, made on
 * first touch): the stamp, item and value of its writes in the current epoch, of its reads, and
 * the first stamp of this launch that wrote or read it. An access of 4 or 8 aligned bytes
 * checks and records whole words. The first access to part of a word (1 or 2 bytes, or
 * unaligned) *splits* it: each of its bytes gets a cell of its own with the word's record (its
 * byte of the value), and from then on every access to that word goes byte by byte. Whole-word
 * records are conservative (a word written twice with values that differ in one byte counts as
 * two values in every byte), never blind: every race a byte record sees, the word record sees.
 *
 * Stamps. A stamp numbers a (group, epoch): a group's stamps start at
 * `group_base`, an item's stamp is `group_base + its barriers passed`; a launch's start at
 * `launch_base`. Two accesses are ordered when they are in different launches, or in the same
 * group with a barrier between them; the rest race unless both only read, both are atomic, or
 * both write the same value (the rules of interp).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { READ = 0, WRITE = 1, ATOMIC = 2, UNKNOWN_VALUE = 4, BOUNDS_ONLY = 8 };
enum {
  W_MULTI_ITEM = 1,   /* several items wrote in the cell's write stamp */
  W_MULTI_VALUE = 2,  /* with several values */
  W_ATOMIC = 4,       /* every write in that stamp was atomic */
  R_MULTI = 8,        /* several items read in the cell's read stamp */
  R_ATOMIC = 16,      /* every read in that stamp was atomic */
  LAUNCH_VALUES = 32, /* the launch wrote more than one value (or an unknown one) here */
  W_LAUNCH_ATOMIC = 64, /* every write of the launch here was atomic */
  R_LAUNCH_ATOMIC = 128, /* every read of the launch here was atomic */
};

/* The state that instrumented kernels read and write themselves: the inline fast path of
 * `__gpuir_check_access` (gpuir/lowering/cpu/check_accesses.py, `FAST_PATH`, reads these fields at these
 * offsets). [lo, lo + span) is the device arena, whose owners (below) are `shadow`, one per
 * word; `log` holds `log_count` (address, old word) pairs, the words whose first write of the
 * launch the inline path saw. */
typedef struct {
  uint64_t lo, span;                /*  0,  8 */
  uint64_t *shadow;                 /* 16 */
  int64_t group_now;                /* 24 */
  uint32_t *epochs;                 /* 32 */
  uint32_t group_base, launch_base; /* 40, 44 */
  uint64_t *log;                    /* 48 */
  int64_t log_count, log_room;      /* 56, 64 */
} Fast;

Fast gpuir_check_fast = {.group_now = -1};
#define fast gpuir_check_fast

typedef struct {
  uint32_t w_stamp, w_first, r_stamp, r_first;
  uint16_t w_item, r_item;
  uint8_t w_value, flags, pad[2];
} Cell;

#define CHUNK_BITS 16
#define CHUNK (1u << CHUNK_BITS)
#ifndef SLOTS /* chunks of records per table (a test builds the checker with fewer) */
#define SLOTS (1u << 16)
#endif

#define WAYS 16
typedef struct { /* chunks of records by key (open addressing), and the last chunk per way */
  uint64_t keys[SLOTS];
  void *chunks[SLOTS];
  uint64_t recent_keys[WAYS];
  void *recent[WAYS];
} Table;
#define NEW_TABLE                                                                               \
  {                                                                                             \
    .recent_keys = {~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull,                     \
                    ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull}                     \
  }
#define WAY(key) ((unsigned)((key) ^ ((key) >> 7)) & (WAYS - 1))

/* The chunk of records (`size` bytes each) that `key` names in `t`, made on first touch; 0
 * when every slot is taken (no room: the access is suspect) or no memory is left. */
static void *chunk_in(Table *t, uint64_t key, size_t size) {
  uint32_t slot = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 48) & (SLOTS - 1);
  for (uint32_t probes = 1; t->chunks[slot] && t->keys[slot] != key; probes++) {
    if (probes == SLOTS) return 0;
    slot = (slot + 1) & (SLOTS - 1);
  }
  if (!t->chunks[slot]) {
    void *made = mmap(0, size * CHUNK, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (made == MAP_FAILED) return 0;
    t->keys[slot] = key;
    t->chunks[slot] = made;
  }
  t->recent_keys[WAY(key)] = key;
  t->recent[WAY(key)] = t->chunks[slot];
  return t->chunks[slot];
}

static inline void *chunk_of(Table *t, uint64_t key, size_t size) {
  unsigned way = WAY(key);
  return t->recent_keys[way] == key ? t->recent[way] : chunk_in(t, key, size);
}

static Table cell_table = NEW_TABLE;

static Cell *cell_of(uint64_t address) { /* a few chunks at once (a kernel's arrays) */
  Cell *chunk = chunk_of(&cell_table, address >> CHUNK_BITS, sizeof(Cell));
  return chunk ? chunk + (address & (CHUNK - 1)) : 0;
}

typedef struct {
  uint32_t w_stamp, w_first, r_stamp, r_first;
  uint16_t w_item, r_item;
  uint32_t w_value;
  uint8_t flags, split, pad[2];
} Word;

static Table word_table = NEW_TABLE;

static Word *word_of(uint64_t address) { /* the cell of the aligned word holding `address` */
  uint64_t word = address >> 2;
  Word *chunk = chunk_of(&word_table, word >> CHUNK_BITS, sizeof(Word));
  return chunk ? chunk + (word & (CHUNK - 1)) : 0;
}

/* --- owners: the fast path of the common case ---
 *
 * Each aligned word also has an 8-byte *owner*: the stamp (low 32 bits), the item (16 bits) and
 * what it did (OWN_READ / OWN_WRITE / OWN_VALUES), while one item in one stamp is the only one
 * that touched the word in this launch, or OWN_SLOW (the word's Word record is what counts for
 * the rest of the launch). A plain aligned access of 4 or 8 bytes to a word no one has touched
 * this launch, or only the same item in the same stamp, cannot race: it updates the owner and
 * nothing else. Anything else *materializes* the Word from the owner (what the record would
 * hold had it seen those accesses) and goes on as before. An owner of an earlier launch (its
 * stamp below `launch_base`) is nobody's: its Word record is stale too, and no stamp in it
 * counts.
 *
 * The owners of the device arena are one array (`fast.shadow`), those of other memory are in
 * chunks made on first touch. An arena word wholly within a live allocation has LIVE in its
 * owner once its page of owners has been touched (`touch`, below), kept through every change:
 * the inline path takes nothing else, so that it needs no bounds check of its own (the rest,
 * and the first access in a page, go through `within`). */
enum { OWN_READ = 1, OWN_WRITE = 2, OWN_VALUES = 4, OWN_SLOW = 8, OWN_LIVE = 16 };
#define LIVE ((uint64_t)OWN_LIVE << 48) /* an arena word of a live allocation (below) */
#define OWN(stamp, item, bits) \
  ((uint64_t)(stamp) | (uint64_t)(uint16_t)(item) << 32 | (uint64_t)(bits) << 48)
#define OWN_STAMP(o) ((uint32_t)(o))
#define OWN_ITEM(o) ((uint16_t)((o) >> 32))
#define OWN_BITS(o) ((unsigned)((o) >> 48))

static Table owner_table = NEW_TABLE;

static inline uint64_t *owner_of(uint64_t address) { /* the owner of the word at `address` */
  if (address - fast.lo < fast.span) return fast.shadow + ((address - fast.lo) >> 2);
  uint64_t word = address >> 2;
  uint64_t *chunk = chunk_of(&owner_table, word >> CHUNK_BITS, sizeof(uint64_t));
  return chunk ? chunk + (word & (CHUNK - 1)) : 0;
}

static int split(Word *w, uint64_t word_address) { /* its bytes get its record; 0 if no room */
  if (w->split) return 1;
  for (int i = 0; i < 4; i++) {
    Cell *c = cell_of(word_address + (uint64_t)i);
    if (!c) return 0;
    c->w_stamp = w->w_stamp;
    c->w_first = w->w_first;
    c->r_stamp = w->r_stamp;
    c->r_first = w->r_first;
    c->w_item = w->w_item;
    c->r_item = w->r_item;
    c->w_value = (uint8_t)(w->w_value >> (8 * i));
    c->flags = w->flags;
  }
  w->split = 1;
  return 1;
}

static void clear(uint64_t start, uint64_t nbytes) { /* no records: new memory */
  for (uint64_t a = start & ~3ull; a < start + nbytes; a += 4) {
    Word *w = word_of(a);
    if (w) memset(w, 0, sizeof *w);
    uint64_t *o = owner_of(a);
    if (o) *o &= LIVE;
  }
  for (uint64_t a = start; a < start + nbytes; a++) {
    Cell *c = cell_of(a);
    if (c) memset(c, 0, sizeof *c);
  }
}

/* --- allocations: sorted, disjoint [start, end) ranges; freed ones are not kept --- */

static uint64_t *starts, *ends;
static int64_t count, capacity;
static int64_t last_found = -1;

/* The arena's owners are written where they are used, not where memory is allocated: LIVE
 * goes into a page of owners (`SPAN` bytes of memory) at the first access that reaches the
 * checker there (`touch`), for the words that live allocations hold; `marked` has a bit per
 * page that has had it. An allocation sets LIVE only in pages already marked, and its free
 * gives the pages wholly its own back to the system (they read as zeros, unmarked). So a
 * program's untouched memory costs no owners: allocating 2 GB of which a kernel touches 1 MB
 * wrote 4 GB of owners before. */
#define PAGE_OWNERS 512u                /* owners in a 4096-byte page of them */
#define SPAN ((uint64_t)PAGE_OWNERS * 4) /* the bytes of memory they are the owners of */
static uint64_t *marked;
static int64_t find(uint64_t address);

static int is_marked(uint64_t page) { return (int)(marked[page >> 6] >> (page & 63) & 1); }

static void live(uint64_t start, uint64_t end) { /* LIVE on the arena words in [start, end) */
  for (uint64_t a = (start + 3) & ~3ull; a + 4 <= end; a += 4)
    fast.shadow[(a - fast.lo) >> 2] |= LIVE;
}

static void unowned(uint64_t start, uint64_t end) { /* no owner for the arena words in it */
  for (uint64_t a = (start + 3) & ~3ull; a + 4 <= end; a += 4)
    fast.shadow[(a - fast.lo) >> 2] = 0;
}

static void live_within(uint64_t lo, uint64_t hi) { /* ... that live allocations hold */
  int64_t at = find(lo);
  for (at = at < 0 ? 0 : at; at < count && starts[at] < hi; at++) {
    uint64_t s = starts[at] > lo ? starts[at] : lo, e = ends[at] < hi ? ends[at] : hi;
    if (s < e) live(s, e);
  }
}

static void touch(uint64_t address, uint64_t nbytes) { /* arena bytes a live allocation holds */
  uint64_t last = (address + nbytes - 1 - fast.lo) / SPAN;
  for (uint64_t page = (address - fast.lo) / SPAN; page <= last; page++) {
    if (is_marked(page)) continue;
    marked[page >> 6] |= 1ull << (page & 63);
    live_within(fast.lo + page * SPAN, fast.lo + (page + 1) * SPAN);
  }
}

static void mark(uint64_t start, uint64_t end) { /* a new allocation: LIVE in marked pages */
  if (start - fast.lo >= fast.span || start >= end) return; /* not in the arena */
  uint64_t first = (start - fast.lo) / SPAN, last = (end - 1 - fast.lo) / SPAN;
  for (uint64_t page = first; page <= last; page++) {
    if ((page & 63) == 0 && page + 63 <= last && !marked[page >> 6]) {
      page += 63; /* 64 pages none of which is marked */
      continue;
    }
    if (!is_marked(page)) continue;
    uint64_t lo = fast.lo + page * SPAN, hi = lo + SPAN;
    live(start > lo ? start : lo, end < hi ? end : hi);
  }
}

static void unmark(uint64_t start, uint64_t end) { /* a freed allocation: no owners */
  if (start - fast.lo >= fast.span || start >= end) return;
  uint64_t first = (start - fast.lo + SPAN - 1) / SPAN, stop = (end - fast.lo) / SPAN;
  if (first >= stop) { /* no page wholly its own */
    unowned(start, end);
    return;
  }
  unowned(start, fast.lo + first * SPAN);
  unowned(fast.lo + stop * SPAN, end);
  for (uint64_t page = first; page < stop; page++) marked[page >> 6] &= ~(1ull << (page & 63));
  madvise(fast.shadow + first * PAGE_OWNERS, (stop - first) * PAGE_OWNERS * sizeof(uint64_t),
          MADV_DONTNEED); /* reads as zeros */
}

int gpuir_check_arena(uint64_t lo, uint64_t span) { /* the device arena: its owners, one array */
  void *shadow = mmap(0, span / 4 * sizeof(uint64_t), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (shadow == MAP_FAILED) return -1;
  void *bits = mmap(0, span / SPAN / 8 + 8, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (bits == MAP_FAILED) {
    munmap(shadow, span / 4 * sizeof(uint64_t));
    return -1;
  }
  fast.shadow = shadow;
  marked = bits;
  fast.lo = lo;
  fast.span = span;
  return 0;
}

static int64_t find(uint64_t address) { /* the last range starting at or before `address` */
  int64_t lo = 0, hi = count;
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    if (starts[mid] <= address) lo = mid + 1; else hi = mid;
  }
  return lo - 1;
}

int gpuir_check_alloc(uint64_t start, uint64_t nbytes) {
  if (count == capacity) {
    int64_t grown = capacity ? 2 * capacity : 256;
    uint64_t *s = realloc(starts, grown * sizeof *s), *e;
    if (!s) return -1;
    starts = s;
    e = realloc(ends, grown * sizeof *e);
    if (!e) return -1;
    ends = e;
    capacity = grown;
  }
  int64_t at = find(start) + 1;
  memmove(starts + at + 1, starts + at, (count - at) * sizeof *starts);
  memmove(ends + at + 1, ends + at, (count - at) * sizeof *ends);
  starts[at] = start;
  ends[at] = start + nbytes;
  count++;
  last_found = -1;
  mark(start, start + nbytes);
  return 0;
}

void gpuir_check_free(uint64_t start) {
  int64_t at = find(start);
  if (at < 0 || starts[at] != start) return;
  unmark(start, ends[at]);
  memmove(starts + at, starts + at + 1, (count - at - 1) * sizeof *starts);
  memmove(ends + at, ends + at + 1, (count - at - 1) * sizeof *ends);
  count--;
  last_found = -1;
}

static int within(uint64_t address, uint64_t nbytes) { /* a live allocation holds the bytes */
  int64_t at = last_found;
  if (at < 0 || address < starts[at] || address + nbytes > ends[at]) {
    at = find(address);
    if (at < 0 || address + nbytes > ends[at] || address + nbytes < address) return 0;
    last_found = at;
  }
  return 1;
}

/* --- a launch --- */

static uint32_t stamp_next = 1, group_top;
static int64_t epochs_size;
static void (*abort_launch)(int64_t, int64_t);
static int64_t suspect;

/* --- the undo log: what each launch's first write to some bytes found there ---
 *
 * Ranges of bytes in the order they were first written, each with its old bytes in `undo_bytes`
 * (from `at`). A first write right after the last range's end (items writing an array in order)
 * makes that range longer. */

typedef struct {
  uint64_t address;
  int64_t nbytes, at;
} Undo;

static Undo *undo;
static int64_t undo_count, undo_capacity, undo_lost;
static uint8_t *undo_bytes;
static int64_t undo_used, undo_room;

static void remember(uint64_t address, int64_t nbytes) { /* before a write of these bytes */
  if (undo_used + nbytes > undo_room) {
    int64_t grown = undo_room ? 2 * undo_room : 1 << 16;
    while (grown < undo_used + nbytes) grown *= 2;
    uint8_t *more = realloc(undo_bytes, (size_t)grown);
    if (!more) {
      undo_lost = 1;
      return;
    }
    undo_bytes = more;
    undo_room = grown;
  }
  Undo *last = undo_count ? &undo[undo_count - 1] : 0;
  if (!last || last->address + (uint64_t)last->nbytes != address) {
    if (undo_count == undo_capacity) {
      int64_t grown = undo_capacity ? 2 * undo_capacity : 4096;
      Undo *more = realloc(undo, grown * sizeof *more);
      if (!more) {
        undo_lost = 1;
        return;
      }
      undo = more;
      undo_capacity = grown;
    }
    last = &undo[undo_count++];
    last->address = address;
    last->nbytes = 0;
    last->at = undo_used;
  }
  memcpy(undo_bytes + undo_used, (const void *)(uintptr_t)address, (size_t)nbytes);
  undo_used += nbytes;
  last->nbytes += nbytes;
}

static void grow_log(void) { /* room for more first writes on the inline path */
  int64_t grown = fast.log_room ? 2 * fast.log_room : 1 << 16;
  uint64_t *more = realloc(fast.log, (size_t)grown * 2 * sizeof *more);
  if (!more) return; /* the inline path keeps calling: the log below takes them */
  fast.log = more;
  fast.log_room = grown;
}

int64_t gpuir_check_undo(void) { /* put the launch's memory back; -1 if it cannot be */
  if (undo_lost) return -1;
  for (int64_t i = 0; i < fast.log_count; i++) {
    uint32_t old = (uint32_t)fast.log[2 * i + 1];
    memcpy((void *)(uintptr_t)fast.log[2 * i], &old, sizeof old);
  }
  fast.log_count = 0;
  for (int64_t i = undo_count - 1; i >= 0; i--)
    memcpy((void *)(uintptr_t)undo[i].address, undo_bytes + undo[i].at, (size_t)undo[i].nbytes);
  undo_count = undo_used = 0;
  return 0;
}

int gpuir_check_begin(int64_t n_items, void (*abort_fn)(int64_t, int64_t)) {
  if (n_items > epochs_size) {
    uint32_t *grown = realloc(fast.epochs, n_items * sizeof *grown);
    if (!grown) return -1;
    fast.epochs = grown;
    epochs_size = n_items;
  }
  fast.launch_base = fast.group_base = stamp_next;
  group_top = stamp_next - 1;
  fast.group_now = -1;
  suspect = 0;
  undo_count = undo_used = undo_lost = 0;
  fast.log_count = 0;
  abort_launch = abort_fn;
  memset(fast.epochs, 0, n_items * sizeof *fast.epochs);
  return 0;
}

static uint64_t *slots;
static int64_t slot_count, slot_capacity, slots_lost;

void __gpuir_check_slot(int64_t address, int64_t nbytes) { /* a slot, once a launch */
  uint64_t start = (uint64_t)address;
  int64_t at = find(start);
  if (at >= 0 && starts[at] == start) return;
  if (slot_count == slot_capacity) {
    int64_t grown = slot_capacity ? 2 * slot_capacity : 256;
    uint64_t *more = realloc(slots, grown * sizeof *more);
    if (!more) {
      slots_lost = 1; /* no room to know it: the launch is suspect (interp checks it) */
      return;
    }
    slots = more;
    slot_capacity = grown;
  }
  if (gpuir_check_alloc(start, (uint64_t)nbytes)) {
    slots_lost = 1;
    return;
  }
  slots[slot_count++] = start;
}

void __gpuir_check_heap_alloc(int64_t address, int64_t nbytes) { /* lives until freed */
  if (gpuir_check_alloc((uint64_t)address, (uint64_t)nbytes)) slots_lost = 1;
  clear((uint64_t)address, (uint64_t)nbytes); /* new memory: what was there before is gone */
}

void __gpuir_check_heap_free(int64_t address) { gpuir_check_free((uint64_t)address); }

int64_t gpuir_check_end(void) { /* the launch's verdict: 0 clean, 1 suspect */
  stamp_next = group_top + 1;
  for (int64_t i = 0; i < slot_count; i++) gpuir_check_free(slots[i]);
  slot_count = 0;
  int64_t verdict = suspect || slots_lost;
  slots_lost = 0;
  return verdict;
}

static uint64_t shared_start, shared_bytes;

void gpuir_check_shared(uint64_t start, uint64_t nbytes) { /* the launch's shared memory */
  shared_start = start;
  shared_bytes = nbytes;
}

static void enter(int64_t group) { /* a new group: its stamps start past the last one used */
  if (group == fast.group_now) return;
  fast.group_now = group;
  fast.group_base = group_top = group_top + 1;
  memset(fast.epochs, 0, epochs_size * sizeof *fast.epochs);
  /* each group has shared memory of its own: what the one before did there is gone */
  clear(shared_start, shared_bytes);
}

static void suspicious(int64_t group) {
  suspect = 1;
  if (abort_launch) abort_launch(group, -1);
}

void __gpuir_check_barrier(int64_t group, int64_t item) {
  enter(group);
  uint32_t stamp = fast.group_base + ++fast.epochs[item];
  if (stamp > group_top) group_top = stamp;
}

/* `earlier` / `now`: a stamp of an earlier group of this launch, or the access's own. */
#define EARLIER(s) ((s) >= fast.launch_base && (s) < fast.group_base)

/* Check an access of item `item` (stamp `now`) against the record `c` (a byte cell or a word
 * cell) and record it; `v` is its value there (a byte or a word). Jumps to `race` on a race;
 * sets `fresh` when the launch had not written there. */
#define CHECK_AND_RECORD(c, v)                                                                  \
  do {                                                                                          \
    uint8_t f = (c)->flags;                                                                     \
    if ((c)->w_stamp == now) {                                                                  \
      if (((c)->w_item != (uint16_t)item || (f & W_MULTI_ITEM)) && !(atomic && (f & W_ATOMIC))) { \
        if (!writes || (c)->w_value != (v) || unknown || (f & (W_MULTI_VALUE | LAUNCH_VALUES))) \
          goto race;                                                                            \
      }                                                                                         \
    } else if (EARLIER((c)->w_stamp)) {                                                         \
      if (!(atomic && (f & W_ATOMIC))) {                                                        \
        if (!writes || (c)->w_value != (v) || unknown || (f & (W_MULTI_VALUE | LAUNCH_VALUES))) \
          goto race;                                                                            \
      }                                                                                         \
    }                                                                                           \
    if (EARLIER((c)->w_first) && (c)->w_stamp >= fast.group_base && !(atomic && (f & W_LAUNCH_ATOMIC))) { \
      if (!writes || (c)->w_value != (v) || unknown || (f & LAUNCH_VALUES)) goto race;          \
    }                                                                                           \
    if (writes) {                                                                               \
      if ((c)->r_stamp == now) {                                                                \
        if (((c)->r_item != (uint16_t)item || (f & R_MULTI)) && !(atomic && (f & R_ATOMIC))) goto race; \
      } else if (EARLIER((c)->r_stamp) && !(atomic && (f & R_ATOMIC))) {                        \
        goto race;                                                                              \
      }                                                                                         \
      if (EARLIER((c)->r_first) && (c)->r_stamp >= fast.group_base && !(atomic && (f & R_LAUNCH_ATOMIC))) \
        goto race;                                                                              \
    }                                                                                           \
    if (writes && (c)->w_stamp < fast.launch_base) fresh = 1;                                        \
    if (!writes || atomic) {                                                                    \
      if ((c)->r_first < fast.launch_base) {                                                         \
        (c)->r_first = now;                                                                     \
        f = (f & ~R_LAUNCH_ATOMIC) | (atomic ? R_LAUNCH_ATOMIC : 0);                            \
      } else if (!atomic) {                                                                     \
        f &= ~R_LAUNCH_ATOMIC;                                                                  \
      }                                                                                         \
      if ((c)->r_stamp != now) {                                                                \
        (c)->r_stamp = now;                                                                     \
        (c)->r_item = (uint16_t)item;                                                           \
        f = (f & ~(R_MULTI | R_ATOMIC)) | (atomic ? R_ATOMIC : 0);                              \
      } else {                                                                                  \
        if ((c)->r_item != (uint16_t)item) f |= R_MULTI;                                        \
        if (!atomic) f &= ~R_ATOMIC;                                                            \
      }                                                                                         \
    }                                                                                           \
    if (writes) {                                                                               \
      if ((c)->w_first < fast.launch_base) {                                                         \
        f = (f & ~W_LAUNCH_ATOMIC) | (atomic ? W_LAUNCH_ATOMIC : 0);                            \
      } else if (!atomic) {                                                                     \
        f &= ~W_LAUNCH_ATOMIC;                                                                  \
      }                                                                                         \
      if ((c)->w_stamp != now) {                                                                \
        if ((c)->w_first < fast.launch_base) {                                                       \
          (c)->w_first = now;                                                                   \
          f &= ~LAUNCH_VALUES;                                                                  \
        } else if ((c)->w_value != (v)) {                                                       \
          f |= LAUNCH_VALUES;                                                                   \
        }                                                                                       \
        (c)->w_stamp = now;                                                                     \
        (c)->w_item = (uint16_t)item;                                                           \
        (c)->w_value = (v);                                                                     \
        f = (f & ~(W_MULTI_ITEM | W_MULTI_VALUE | W_ATOMIC)) | (atomic ? W_ATOMIC : 0);         \
      } else {                                                                                  \
        if ((c)->w_item != (uint16_t)item) f |= W_MULTI_ITEM;                                   \
        if ((c)->w_value != (v)) f |= W_MULTI_VALUE | LAUNCH_VALUES;                            \
        if (!atomic) f &= ~W_ATOMIC;                                                            \
      }                                                                                         \
      if (unknown) f |= LAUNCH_VALUES | W_MULTI_VALUE;                                          \
    }                                                                                           \
    (c)->flags = f;                                                                             \
  } while (0)

/* The Word record of the word at `at` from its owner `was`, as the record would be had it seen
 * the owner's accesses; an owner of an earlier launch leaves the record as it is (nothing in it
 * counts). The value of the owner's writes is the word's (the same item wrote them all); when
 * they were not all the same, the record says so. */
static void materialize(Word *w, uint64_t was, uint64_t at) {
  if (OWN_STAMP(was) < fast.launch_base) return;
  uint32_t stamp = OWN_STAMP(was);
  unsigned bits = OWN_BITS(was);
  memset(w, 0, sizeof *w);
  w->w_item = w->r_item = OWN_ITEM(was);
  if (bits & OWN_WRITE) {
    w->w_stamp = w->w_first = stamp;
    w->w_value = *(const uint32_t *)(uintptr_t)at;
    if (bits & OWN_VALUES) w->flags |= W_MULTI_VALUE | LAUNCH_VALUES;
  }
  if (bits & OWN_READ) w->r_stamp = w->r_first = stamp;
}

void __gpuir_check_slow(uint64_t address, int64_t nbytes, int64_t kind, uint64_t value,
                          int64_t group, int64_t item) {
  enter(group);
  if (fast.log_count == fast.log_room) grow_log();
  if (!within(address, (uint64_t)nbytes)) {
    suspicious(group);
    return;
  }
  if (kind & BOUNDS_ONLY) return; /* local memory: the item's own */
  if (address - fast.lo < fast.span) touch(address, (uint64_t)nbytes);
  uint32_t now = fast.group_base + fast.epochs[item];
  int atomic = (kind & ATOMIC) != 0, unknown = (kind & UNKNOWN_VALUE) != 0;
  int writes = (kind & (WRITE | ATOMIC)) != 0;
  int whole = (address & 3) == 0 && (nbytes == 4 || nbytes == 8);
  uint64_t mine = OWN(now, item, 0);
  for (uint64_t at = address & ~3ull; at < address + (uint64_t)nbytes; at += 4) {
    uint64_t *o = owner_of(at);
    if (!o) goto race;
    uint64_t was = *o;
    if (whole && !atomic && !unknown) { /* the fast path (owners, above) */
      if (OWN_STAMP(was) < fast.launch_base) {
        *o = mine | (uint64_t)(writes ? OWN_WRITE : OWN_READ) << 48 | (was & LIVE);
        if (writes) remember(at, 4);
        continue;
      }
      if ((was & 0xFFFFFFFFFFFFull) == mine && !(OWN_BITS(was) & OWN_SLOW)) {
        if (writes) {
          unsigned bits = OWN_BITS(was);
          if (!(bits & OWN_WRITE)) remember(at, 4);
          else if (*(const uint32_t *)(uintptr_t)at != (uint32_t)(value >> (8 * (at - address))))
            bits |= OWN_VALUES;
          *o = mine | (uint64_t)(bits | OWN_WRITE) << 48;
        } else {
          *o = was | (uint64_t)OWN_READ << 48;
        }
        continue;
      }
    }
    Word *w = word_of(at);
    if (!w) goto race;
    if (OWN_STAMP(was) < fast.launch_base || !(OWN_BITS(was) & OWN_SLOW)) {
      materialize(w, was, at);
      *o = OWN(now, item, OWN_SLOW) | (was & LIVE);
    }
    if (whole && !w->split) { /* whole words */
      uint32_t v = (uint32_t)(value >> (8 * (at - address)));
      int fresh = 0;
      CHECK_AND_RECORD(w, v);
      if (fresh) remember(at, 4);
      continue;
    }
    if (!split(w, at)) goto race;
    uint64_t first = at < address ? address : at;
    uint64_t end = at + 4 < address + (uint64_t)nbytes ? at + 4 : address + (uint64_t)nbytes;
    for (uint64_t b = first; b < end; b++) {
      Cell *c = cell_of(b);
      if (!c) goto race;
      uint8_t v = (uint8_t)(value >> (8 * ((b - address) & 7)));
      int fresh = 0;
      CHECK_AND_RECORD(c, v);
      if (fresh) remember(b, 1);
    }
  }
  return;
race:
  suspicious(group);
}
