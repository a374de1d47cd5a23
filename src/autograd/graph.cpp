// The tape and the reverse pass (graph.hpp), the version counter of saved tensors,
// and the gradient members of the tensor handles.
#include "graph.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core_errors.hpp"
#include "nt/autograd.hpp"

namespace nt::detail {

namespace {

thread_local bool recording = true;
// The node whose rule the reverse pass runs on this thread: saved inputs and results
// take their nodes back from it (saving them took no reference).
thread_local const node_ptr* running_rule = nullptr;

bool is_floating(dtype d) noexcept { return d == dtype::f16 || d == dtype::f32 || d == dtype::f64; }

// --- the tape's memory -----------------------------------------------------------------

#if defined(__SANITIZE_ADDRESS__)
#define NT_TAPE_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NT_TAPE_POOL 0
#endif
#endif
#ifndef NT_TAPE_POOL
#define NT_TAPE_POOL 1
#endif

#if NT_TAPE_POOL
constexpr std::size_t tape_granule = 32;     // block sizes: 32, 64, ... bytes
constexpr std::size_t tape_classes = 64;     // up to 2 KiB; larger blocks go to operator new
constexpr std::size_t tape_kept_bytes = std::size_t{1} << 21;  // free bytes kept per size and thread

struct free_block {
    free_block* next;
};
// Trivially destructible, so that a block freed while the thread ends (a graph held
// by a thread_local) still finds it; tape_cache_owner frees the blocks at thread exit.
struct tape_cache {
    free_block* head[tape_classes];
    std::uint32_t count[tape_classes];
    bool closed;
};
thread_local tape_cache cache{};

struct tape_cache_owner {
    tape_cache_owner() = default;
    tape_cache_owner(const tape_cache_owner&) = delete;
    tape_cache_owner& operator=(const tape_cache_owner&) = delete;
    ~tape_cache_owner() {
        cache.closed = true;
        for (std::size_t c = 0; c < tape_classes; ++c)
            while (free_block* b = cache.head[c]) {
                cache.head[c] = b->next;
                ::operator delete(b);
            }
    }
};
thread_local tape_cache_owner cache_owner;
#endif

}  // namespace

void* tape_allocate(std::size_t bytes) {
#if NT_TAPE_POOL
    const std::size_t c = (bytes + tape_granule - 1) / tape_granule - 1;
    if (c < tape_classes && !cache.closed) {
        if (free_block* b = cache.head[c]) {
            cache.head[c] = b->next;
            --cache.count[c];
            return b;
        }
        (void)&cache_owner;  // constructs it on this thread, so that it frees the cache at exit
        return ::operator new((c + 1) * tape_granule);
    }
#endif
    return ::operator new(bytes);
}

void tape_deallocate(void* block, std::size_t bytes) noexcept {
#if NT_TAPE_POOL
    const std::size_t c = (bytes + tape_granule - 1) / tape_granule - 1;
    if (c < tape_classes && !cache.closed && cache.count[c] < tape_kept_bytes / ((c + 1) * tape_granule)) {
        auto* b = static_cast<free_block*>(block);
        b->next = cache.head[c];
        cache.head[c] = b;
        ++cache.count[c];
        return;
    }
#endif
    ::operator delete(block);
}

namespace {

// --- the version counter ------------------------------------------------------------
// A write in place must be seen by every saved tensor of its storage, through any
// view. Storages hash into slots; each slot counts the writes into its storages, and
// the saved tensors that watch it are counted per thread (below). A write into a
// watched slot also notes, under a lock, its storage and the slot's count after it,
// so that a saved tensor whose slot moved can tell its own storage's write from a
// neighbour's.

struct version_slot {
    std::atomic<std::uint64_t> writes{0};
};
// Few enough to stay in cache (each save and free touches one); storages sharing a
// slot are told apart by the notes below.
constexpr std::size_t version_slot_count = 1024;
version_slot version_slots[version_slot_count];

std::size_t slot_index(const void* storage) noexcept {
    auto bits = reinterpret_cast<std::uintptr_t>(storage) >> 4;
    bits ^= bits >> 12;
    return (bits * 0x9E3779B97F4A7C15ull >> 40) % version_slot_count;
}
version_slot& slot_of(const void* storage) noexcept { return version_slots[slot_index(storage)]; }

// --- who watches a slot ----------------------------------------------------------------
// Each thread counts the saved tensors it makes (+1) and frees (-1), per slot, in an
// array of its own written with plain stores: a locked add costs as much as the rest
// of a save, and a training step saves thousands. A write in place sums its slot over
// the arrays; a tensor saved on one thread and freed on another leaves +1 and -1 that
// cancel. An array outlives its thread with its counts and goes to the next thread
// that claims it. Threads beyond the arrays (and threads already ending) count in one
// shared array with atomic adds.
constexpr std::size_t watch_array_count = 64;
struct watch_array {
    std::atomic<std::int32_t> count[version_slot_count];
};
watch_array watch_arrays[watch_array_count];
std::atomic<bool> watch_array_claimed[watch_array_count];
std::atomic<std::size_t> watch_arrays_used{0};  // arrays ever claimed: the first n
watch_array shared_watch_array;

// Trivially destructible, so that a tensor freed while the thread ends still finds it.
thread_local watch_array* my_watch_array = nullptr;
thread_local std::size_t my_watch_index = 0;

struct watch_array_owner {
    watch_array_owner() = default;
    watch_array_owner(const watch_array_owner&) = delete;
    watch_array_owner& operator=(const watch_array_owner&) = delete;
    ~watch_array_owner() {
        if (my_watch_array == &watch_arrays[my_watch_index])
            watch_array_claimed[my_watch_index].store(false, std::memory_order_release);
        my_watch_array = &shared_watch_array;
    }
};
thread_local watch_array_owner watch_owner;

watch_array* claim_watch_array() noexcept {
    for (std::size_t i = 0; i < watch_array_count; ++i) {
        bool expected = false;
        if (watch_array_claimed[i].load(std::memory_order_relaxed) ||
            !watch_array_claimed[i].compare_exchange_strong(expected, true, std::memory_order_acq_rel))
            continue;
        std::size_t used = watch_arrays_used.load(std::memory_order_relaxed);
        while (used < i + 1 && !watch_arrays_used.compare_exchange_weak(used, i + 1, std::memory_order_acq_rel)) {
        }
        my_watch_index = i;
        my_watch_array = &watch_arrays[i];
        (void)&watch_owner;  // constructs it on this thread, so that the claim ends with the thread
        return my_watch_array;
    }
    return my_watch_array = &shared_watch_array;
}

void count_watcher(std::size_t slot, std::int32_t delta) noexcept {
    watch_array* a = my_watch_array;
    if (a == nullptr) [[unlikely]]
        a = claim_watch_array();
    std::atomic<std::int32_t>& n = a->count[slot];
    if (a == &shared_watch_array) [[unlikely]]
        n.fetch_add(delta, std::memory_order_acq_rel);
    else
        n.store(n.load(std::memory_order_relaxed) + delta, std::memory_order_release);
}

// The saved tensors alive that watch `slot`. A write ordered after a save (the same
// thread, or one it synchronised with) sees that save's count.
[[nodiscard]] bool watched(std::size_t slot) noexcept {
    std::int64_t n = shared_watch_array.count[slot].load(std::memory_order_acquire);
    const std::size_t used = watch_arrays_used.load(std::memory_order_acquire);
    for (std::size_t i = 0; i < used; ++i) n += watch_arrays[i].count[slot].load(std::memory_order_acquire);
    return n > 0;
}

struct storage_write {
    std::uint64_t count;  // the slot's writes after this one
    std::string op;
};
std::mutex writes_mutex;
// Notes in the table below (read without the lock: a saved tensor freed while no
// write was ever noted, the common case, takes no lock).
std::atomic<std::size_t> noted_writes{0};
std::unordered_map<const void*, storage_write>& written_storages() {
    static std::unordered_map<const void*, storage_write> table;
    return table;
}

}  // namespace

// Not a count: set at the first save and never cleared, so that writes in programs
// that never save pay nothing, and saves and frees pay no shared atomic count.
std::atomic<std::int64_t> watched_storages{0};

bool grad_mode_enabled() noexcept { return recording; }

grad_mode_guard::grad_mode_guard(bool enabled) noexcept : previous_(recording) { recording = enabled; }
grad_mode_guard::~grad_mode_guard() { recording = previous_; }

void refuse_write_in_graph(const tensor_base& t, std::string_view op) {
    if (!recording) return;
    const tape_node& n = *t.grad_node();
    fail(errc::invalid_argument, op,
         "writes in place into " + t.describe() + ", which " +
             (n.leaf ? std::string("requires a gradient (marked with_grad)")
                     : "is the result of '" + n.op + "' in a graph that records gradients") +
             ": the recorded rules would compute with the overwritten values. Write under nt::no_grad (as "
             "optimisers do), "
             "write into t.detach(), or use the out-of-place form (y = y + x instead of y += x)");
}

void refuse_out_in_graph(std::string_view op, const tensor_base& out) {
    fail(errc::invalid_argument, op,
         "the out= form writes into " + out.describe() +
             " and records no gradient, but an operand takes part in a graph that records; use the form that "
             "returns its result (c = a + b), or compute under nt::no_grad");
}

void advance_version(const tensor_base& t, std::string_view op) {
    const void* key = t.storage();
    if (key == nullptr) return;
    const std::size_t index = slot_index(key);
    if (!watched(index)) return;
    version_slot& slot = version_slots[index];
    std::lock_guard lock(writes_mutex);
    const std::uint64_t count = slot.writes.fetch_add(1, std::memory_order_acq_rel) + 1;
    written_storages().insert_or_assign(key, storage_write{count, std::string(op)});
    noted_writes.store(written_storages().size(), std::memory_order_release);
}

// --- saved tensors ------------------------------------------------------------------

// The tensor in parts, its sizes, strides and names after the block in the same
// allocation: a tensor_base is mostly the inline room of rank-8 layouts and names,
// and recording writes one saved tensor for most operations it records.
struct saved_tensor::block {
    // Its node left behind unless `other`.
    block(const tensor_base& t, saved_kind k) noexcept
        : owner(t.owner()),
          kept_node(k == saved_kind::other ? t.grad_node() : nullptr),
          storage(t.storage()),
          extent(t.extent()),
          offset(t.layout().offset()),
          node(t.grad_node().get()),
          type(t.type()),
          kind(k),
          read_only(t.is_read_only()),
          rank(static_cast<std::uint8_t>(t.rank())),
          name_count(static_cast<std::uint8_t>(t.names().size())) {
        copy_few(sizes(), t.shape().data(), rank);
        copy_few(strides(), t.strides().data(), rank);
        copy_few(names(), t.names().data(), name_count);
        if (storage == nullptr) return;
        if (watched_storages.load(std::memory_order_relaxed) == 0) [[unlikely]]
            watched_storages.store(1, std::memory_order_relaxed);
        const std::size_t index = slot_index(storage);
        count_watcher(index, 1);
        writes = version_slots[index].writes.load(std::memory_order_acquire);
    }
    // A copy watches from the same point: a write between the save and the copy is
    // still seen.
    block(const block& other) noexcept
        : owner(other.owner),
          kept_node(other.kept_node),
          storage(other.storage),
          extent(other.extent),
          offset(other.offset),
          node(other.node),
          writes(other.writes),
          type(other.type),
          kind(other.kind),
          read_only(other.read_only),
          rank(other.rank),
          name_count(other.name_count) {
        copy_few(sizes(), other.sizes(), rank);
        copy_few(strides(), other.strides(), rank);
        copy_few(names(), other.names(), name_count);
        if (storage != nullptr) count_watcher(slot_index(storage), 1);
    }
    block& operator=(const block&) = delete;
    ~block() {
        if (storage == nullptr) return;
        count_watcher(slot_index(storage), -1);
        forget_writes();
    }

    [[nodiscard]] static std::size_t bytes_for(std::size_t rank, std::size_t name_count) noexcept {
        return sizeof(block) + 2 * rank * sizeof(std::int64_t) + name_count * sizeof(name);
    }
    [[nodiscard]] std::size_t bytes() const noexcept { return bytes_for(rank, name_count); }
    [[nodiscard]] std::int64_t* sizes() const noexcept {
        return reinterpret_cast<std::int64_t*>(const_cast<block*>(this) + 1);
    }
    [[nodiscard]] std::int64_t* strides() const noexcept { return sizes() + rank; }
    [[nodiscard]] name* names() const noexcept { return reinterpret_cast<name*>(strides() + rank); }

    [[nodiscard]] tensor_base tensor() const {
        tensor_base t(type, owner, storage, extent,
                      nt::layout(std::span<const std::int64_t>(sizes(), rank),
                                 std::span<const std::int64_t>(strides(), rank), offset),
                      name_list(std::span<const name>(names(), name_count)), read_only);
        if (kept_node) t.set_grad_node(kept_node);
        return t;
    }

    // Once the slot's last watcher is gone, its storages' notes are of no more use.
    void forget_writes() const noexcept {
        if (noted_writes.load(std::memory_order_acquire) == 0) return;
        std::lock_guard lock(writes_mutex);
        const std::size_t mine = slot_index(storage);
        if (watched(mine)) return;
        auto& table = written_storages();
        for (auto it = table.begin(); it != table.end();)
            it = slot_index(it->first) == mine ? table.erase(it) : std::next(it);
        noted_writes.store(table.size(), std::memory_order_release);
    }
    // The op that wrote into the storage since it was saved, or empty.
    [[nodiscard]] std::string write_since() const {
        if (storage == nullptr) return {};
        if (slot_of(storage).writes.load(std::memory_order_acquire) == writes) return {};
        std::lock_guard lock(writes_mutex);
        auto it = written_storages().find(storage);
        return it != written_storages().end() && it->second.count > writes ? it->second.op : std::string();
    }

    std::shared_ptr<void> owner;
    node_ptr kept_node;  // saved_kind::other only
    std::byte* storage;
    std::int64_t extent;
    std::int64_t offset;
    const tape_node* node;  // the node it had (input and output kinds)
    std::uint64_t writes = 0;  // the slot's writes when saved
    dtype type;
    saved_kind kind;
    bool read_only;
    std::uint8_t rank;        // max_rank fits
    std::uint8_t name_count;  // 0 or rank
};
static_assert(sizeof(saved_tensor::block) % alignof(std::int64_t) == 0);
static_assert(max_rank <= 255 && std::is_trivially_copyable_v<name> && alignof(name) <= alignof(std::int64_t));

namespace {

saved_tensor::block* new_block(const tensor_base& t, saved_kind k) {
    void* memory = tape_allocate(saved_tensor::block::bytes_for(t.rank(), t.names().size()));
    return ::new (memory) saved_tensor::block(t, k);
}

saved_tensor::block* copy_block(const saved_tensor::block& other) {
    void* memory = tape_allocate(other.bytes());
    return ::new (memory) saved_tensor::block(other);
}

void delete_block(saved_tensor::block* b) noexcept {
    const std::size_t bytes = b->bytes();
    b->~block();
    tape_deallocate(b, bytes);
}

// Thrown by saved_tensor::get inside a rule; the reverse pass names the rule.
struct overwritten_saved_tensor {
    std::string tensor, write;
};

}  // namespace

saved_tensor::saved_tensor(const tensor_base& t) : block_(new_block(t, saved_kind::other)) {}

saved_tensor saved_tensor::input(const tensor_base& in) {
    saved_tensor s;
    s.block_ = new_block(in, saved_kind::input);
    return s;
}

saved_tensor saved_tensor::output(const tensor_base& out) {
    saved_tensor s;
    s.block_ = new_block(out, saved_kind::output);
    return s;
}

saved_tensor::saved_tensor(const saved_tensor& other) : block_(other.block_ ? copy_block(*other.block_) : nullptr) {}

saved_tensor& saved_tensor::operator=(const saved_tensor& other) {
    if (this != &other) *this = saved_tensor(other);
    return *this;
}

saved_tensor& saved_tensor::operator=(saved_tensor&& other) noexcept {
    if (this != &other) {
        if (block_ != nullptr) delete_block(block_);
        block_ = std::exchange(other.block_, nullptr);
    }
    return *this;
}

void saved_tensor::release(block* b) noexcept { delete_block(b); }

any_tensor saved_tensor::get() const {
    if (block_ == nullptr) return {};
    const block& b = *block_;
    if (std::string write = b.write_since(); !write.empty())
        throw overwritten_saved_tensor{b.tensor().describe(), std::move(write)};
    // Without create_graph the rule records nothing: the tensor needs no node.
    if (b.kind == saved_kind::other || b.node == nullptr || !recording) return any_tensor(b.tensor());
    const node_ptr* found = nullptr;
    if (running_rule != nullptr) {
        if (b.kind == saved_kind::output && running_rule->get() == b.node) found = running_rule;
        if (b.kind == saved_kind::input)
            for (const auto& in : (*running_rule)->inputs)
                if (in.get() == b.node) found = &in;
    }
    if (found == nullptr)
        throw error(errc::invalid_argument, "backward: the tensor " + b.tensor().describe() +
                                                " was saved for a rule other than the one running (an ntensor defect: "
                                                "please report it)");
    tensor_base t = b.tensor();
    t.set_grad_node(*found);
    return any_tensor(std::move(t));
}

// --- nodes --------------------------------------------------------------------------

const std::string* intern_op_name(std::string_view s) {
    static std::mutex mutex;
    static std::unordered_set<std::string> names;
    std::lock_guard lock(mutex);
    return &*names.emplace(s).first;
}

// --- node counts -----------------------------------------------------------------------
// Biased reference counting (Choi, Shull and Torrellas, PACT 2018). Recording copies
// and drops node pointers four to six times an operation, nearly always on the thread
// that made the nodes; a locked add costs as much as the rest of the count. So the
// thread that made a node (its owner) counts its references in `local` with plain
// stores, and other threads count theirs in `shared`, atomically. A node lives while
// local + shared > 0, where shared may go below zero: a reference counted by the
// owner can be dropped on another thread.
//
// shared holds the count times four and two flags. `merged`: local was moved into
// shared (when the owner's count reached zero, or on request below) and every count
// is atomic from then on; the owner marks this in its own count too (merged_local).
// `queued`: another thread took shared below zero before the merge, and asked the
// owner to merge by putting the node in its record's queue; the owner merges it when
// it next makes a node, or when it ends. Only the owner writes `local`; once it has
// ended, its record is `dead` and the thread that asks merges itself, under the
// record's lock (which a thread taking over the record also takes).

struct thread_record {
    std::mutex mutex;
    bool dead = false;                   // under mutex
    std::vector<tape_node*> queue;       // under mutex
    std::atomic<bool> queue_filled{false};  // a hint, read without the lock
    thread_record* next_record = nullptr;   // every record ever made, for reuse
};

namespace {

constexpr std::int64_t merged_flag = 1, queued_flag = 2, one_reference = 4;
constexpr std::uint32_t merged_local = 0xffffffffu;

[[nodiscard]] std::int64_t references(std::int64_t shared) noexcept { return shared >> 2; }

// Records are never freed (nodes of ended threads point to theirs); an ended
// thread's record goes to the next thread that makes nodes.
std::mutex records_mutex;
thread_record* all_records = nullptr;  // under records_mutex
std::vector<thread_record*>& free_records() {  // under records_mutex
    static auto* records = new std::vector<thread_record*>();  // outlives the threads' exits
    return *records;
}
// The owner of nodes made by a thread after its record was given back: no thread.
thread_record no_owner;

// Trivially destructible: nodes dropped while the thread ends still read them.
thread_local thread_record* my_record = nullptr;
thread_local bool my_record_returned = false;

void destroy_node(tape_node* n) noexcept;

// Moves a node's own count into the shared one and takes its queued flag (if any)
// away; true when no reference is left. By the owner, or under the record's lock
// after its thread has ended.
[[nodiscard]] bool merge(tape_node* n, bool was_queued) noexcept {
    std::int64_t delta = was_queued ? -queued_flag : 0;
    if (n->local != merged_local) delta += std::int64_t{n->local} * one_reference + merged_flag;
    n->local = merged_local;
    const std::int64_t now = n->shared.fetch_add(delta, std::memory_order_acq_rel) + delta;
    return references(now) == 0 && (now & queued_flag) == 0;
}

void merge_queue(std::vector<tape_node*>& taken) noexcept {
    for (tape_node* n : taken)
        if (merge(n, true)) destroy_node(n);
    taken.clear();
}

// The nodes other threads asked this one to merge.
void merge_asked(thread_record& r) noexcept {
    std::vector<tape_node*> taken;
    {
        std::lock_guard lock(r.mutex);
        taken.swap(r.queue);
        r.queue_filled.store(false, std::memory_order_relaxed);
    }
    merge_queue(taken);
}

struct record_keeper {
    record_keeper() = default;
    record_keeper(const record_keeper&) = delete;
    record_keeper& operator=(const record_keeper&) = delete;
    // The thread ends: merge what was asked, and from then on let the askers merge.
    ~record_keeper() {
        thread_record& r = *my_record;
        for (;;) {
            std::vector<tape_node*> taken;
            {
                std::lock_guard lock(r.mutex);
                if (r.queue.empty()) {
                    r.dead = true;
                    break;
                }
                taken.swap(r.queue);
            }
            merge_queue(taken);
        }
        my_record = nullptr;  // this thread's own nodes are counted as another thread's now
        my_record_returned = true;
        std::lock_guard lock(records_mutex);
        free_records().push_back(&r);
    }
};
thread_local record_keeper keeper;

thread_record* claim_record() {
    thread_record* r = nullptr;
    {
        std::lock_guard lock(records_mutex);
        auto& free = free_records();
        if (!free.empty()) {
            r = free.back();
            free.pop_back();
        } else {
            r = new thread_record();
            r->next_record = all_records;
            all_records = r;
        }
    }
    {
        // Its nodes' own counts, as their last owner left them, are this thread's now.
        std::lock_guard lock(r->mutex);
        r->dead = false;
    }
    my_record = r;
    (void)&keeper;  // constructs it on this thread, so that the record is given back at exit
    return r;
}

// The record that owns the nodes this thread makes (no_owner once it has ended).
thread_record* record_for_new_node() {
    if (thread_record* r = my_record) [[likely]] {
        if (r->queue_filled.load(std::memory_order_relaxed)) [[unlikely]]
            merge_asked(*r);
        return r;
    }
    return my_record_returned ? &no_owner : claim_record();
}

// A node just made for `r` (record_for_new_node): one reference, the caller's.
node_ptr first_reference(tape_node* n, thread_record* r) noexcept {
    n->owner = r;
    if (r == &no_owner) {
        n->local = merged_local;
        n->shared.store(one_reference | merged_flag, std::memory_order_relaxed);
    }
    return node_ptr::adopt(n);
}

// Asks the owner of `n` to merge it (this thread set its queued flag), or merges it
// here when the owner has ended.
void ask_owner_to_merge(tape_node* n) noexcept {
    thread_record& r = *n->owner;
    bool last = false;
    {
        std::lock_guard lock(r.mutex);
        if (!r.dead) {
            r.queue.push_back(n);  // noexcept: out of memory here ends the program
            r.queue_filled.store(true, std::memory_order_relaxed);
            return;
        }
        last = merge(n, true);
    }
    if (last) destroy_node(n);
}

void release_shared(tape_node* n) noexcept {
    std::int64_t before = n->shared.load(std::memory_order_relaxed);
    std::int64_t after = 0;
    do {
        after = before - one_reference;
        if ((before & (merged_flag | queued_flag)) == 0 && references(after) < 0) after |= queued_flag;
    } while (!n->shared.compare_exchange_weak(before, after, std::memory_order_acq_rel, std::memory_order_relaxed));
    if ((after & merged_flag) != 0) {
        if (references(after) == 0 && (after & queued_flag) == 0) destroy_node(n);
    } else if ((after & queued_flag) != 0 && (before & queued_flag) == 0) {
        ask_owner_to_merge(n);
    }
}

// Destroys nodes one after another, not by recursion: freeing a graph's last
// reference frees its chain of inputs, which may be as long as the program ran.
thread_local tape_node* dying = nullptr;
thread_local bool destroying = false;

void destroy_node(tape_node* n) noexcept {
    n->next_dying = dying;
    dying = n;
    if (destroying) return;
    destroying = true;
    while (tape_node* d = dying) {
        dying = d->next_dying;
        d->~tape_node();
        tape_deallocate(d, sizeof(tape_node));
    }
    destroying = false;
}

}  // namespace

void retain_node(tape_node* n) noexcept {
    if (n->owner == my_record && n->local != merged_local) {
        ++n->local;
        return;
    }
    n->shared.fetch_add(one_reference, std::memory_order_relaxed);
}

void release_node(tape_node* n) noexcept {
    if (n->owner != my_record || n->local == merged_local) {
        release_shared(n);
        return;
    }
    if (--n->local != 0) return;
    // No reference counted elsewhere (nor asked to be merged): none is left anywhere.
    if (n->shared.load(std::memory_order_acquire) == 0 || merge(n, false)) destroy_node(n);
}

node_ptr make_tape_node() {
    thread_record* r = record_for_new_node();
    void* memory = tape_allocate(sizeof(tape_node));
    return first_reference(::new (memory) tape_node(), r);
}

std::string tape_node::describe() const { return "'" + op + "' (result " + spec_text(shape.span(), names.span()) + ")"; }

void attach_node(std::string_view op, tensor_base& out, std::initializer_list<const tensor_base*> inputs,
                 backward_rule rule) {
    if (!is_floating(out.type())) return;
    thread_record* r = record_for_new_node();
    void* memory = tape_allocate(sizeof(tape_node));
    tape_node* n = nullptr;
    try {
        n = ::new (memory) tape_node(op, out, inputs, std::move(rule));
    } catch (...) {
        tape_deallocate(memory, sizeof(tape_node));
        throw;
    }
    out.set_grad_node(first_reference(n, r));
}

any_tensor zeros_of(dtype d, std::span<const std::int64_t> shape, std::span<const name> names) {
    tensor_base t = tensor_base::allocate(d, shape, names, "zeros");
    const std::uint64_t zero = 0;  // all-bits-zero is 0 in every element type
    t.fill(&zero);
    return any_tensor(std::move(t));
}

any_tensor scalar_of(dtype d, double value) {
    tensor_base t = tensor_base::allocate(d, {}, {}, "scalar");
    visit_dtype(d, [&](auto type) {
        using T = typename decltype(type)::type;
        const T v = static_cast<T>(value);
        t.fill(&v);
    });
    return any_tensor(std::move(t));
}

// --- the reverse pass ---------------------------------------------------------------

namespace {

// The gradient of a node, in its type, shape and names: rules compute in promoted
// types and may leave an axis unnamed.
any_tensor conform(any_tensor g, const tape_node& n) {
    if (g.dtype() != n.type) g = g.astype(n.type);
    if (!equal_few(g.shape(), n.shape.span()))
        throw error(errc::invalid_argument, "backward: the rule of " + n.describe() + " gave a gradient " +
                                                g.base().describe() + " (an ntensor defect: please report it)");
    if (!equal_few(g.names(), n.names.span())) g = g.rename(n.names.span());
    return g;
}

void add_into(std::optional<any_tensor>& slot, any_tensor g) {
    if (!slot) slot = std::move(g);
    else slot = *slot + g;
}

void accumulate_leaf(tape_node& leaf, any_tensor g, bool create_graph) {
    // Without create_graph the gradient may be a view of another's storage (the seed, a
    // broadcast): the leaf keeps its own copy.
    if (!create_graph) g = g.clone();
    leaf_gradient& grad = *leaf.leaf;
    std::lock_guard lock(grad.mutex);
    if (!grad.value) grad.value = g.base();
    else grad.value = (any_tensor(*grad.value) + g).base();
}

// Runs a node's rule with the node as running_rule, and names the rule when a
// tensor it saved was overwritten.
input_gradients run_rule(const node_ptr& node, const any_tensor& g) {
    struct running {
        const node_ptr* outer;
        explicit running(const node_ptr& n) noexcept : outer(std::exchange(running_rule, &n)) {}
        running(const running&) = delete;
        running& operator=(const running&) = delete;
        ~running() { running_rule = outer; }
    } scope(node);
    try {
        return node->rule(g);
    } catch (const overwritten_saved_tensor& e) {
        throw error(errc::modified_in_place, "backward: the rule of '" + node->op + "' needs the tensor " + e.tensor +
                                                 " it saved, which '" + e.write +
                                                 "' wrote in place since; compute on a copy (t.clone()) before "
                                                 "writing, or write after backward()");
    }
}

}  // namespace

std::vector<std::optional<any_tensor>> run_backward(std::span<const backward_root> roots,
                                                    std::span<const node_ptr> targets,
                                                    bool accumulate, bool retain, bool create_graph) {
    std::unordered_map<const tape_node*, std::size_t> target_index;
    for (std::size_t i = 0; i < targets.size(); ++i) target_index.emplace(targets[i].get(), i);
    auto is_target = [&](const tape_node* n) { return target_index.count(n) != 0; };

    // Reachable nodes and how many edges lead into each (the inputs of a target or a
    // leaf are not followed).
    std::unordered_map<const tape_node*, std::size_t> pending;
    std::unordered_set<const tape_node*> seen;
    std::vector<tape_node*> stack;
    for (const backward_root& r : roots)
        if (seen.insert(r.node.get()).second) stack.push_back(r.node.get());
    while (!stack.empty()) {
        tape_node* n = stack.back();
        stack.pop_back();
        if (n->leaf || is_target(n)) continue;
        if (n->released)
            throw error(errc::invalid_argument,
                        "backward: the graph through " + n->describe() +
                            " was freed by an earlier backward pass; pass nt::backward_options{.retain_graph = "
                            "true} to the first backward() to run a second one");
        for (const auto& in : n->inputs) {
            if (!in) continue;
            ++pending[in.get()];
            if (seen.insert(in.get()).second) stack.push_back(in.get());
        }
    }

    std::unordered_map<const tape_node*, std::optional<any_tensor>> gradients;
    for (const backward_root& r : roots) add_into(gradients[r.node.get()], conform(r.seed, *r.node));

    std::vector<std::optional<any_tensor>> captured(targets.size());
    // Each with the reference that holds it (a root's or an input's), for running_rule.
    std::vector<const node_ptr*> ready;
    for (const backward_root& r : roots)
        if (pending[r.node.get()] == 0 &&
            std::find_if(ready.begin(), ready.end(), [&](auto* p) { return p->get() == r.node.get(); }) == ready.end())
            ready.push_back(&r.node);
    std::vector<tape_node*> passed;
    grad_mode_guard mode(create_graph);
    while (!ready.empty()) {
        const node_ptr* held = ready.back();
        tape_node* n = held->get();
        ready.pop_back();
        auto it = gradients.find(n);
        std::optional<any_tensor> g;
        if (it != gradients.end()) {
            g = std::move(it->second);
            gradients.erase(it);
        }
        if (auto t = target_index.find(n); t != target_index.end()) {
            captured[t->second] = std::move(g);
            continue;
        }
        if (n->leaf) {
            if (accumulate && g) accumulate_leaf(*n, std::move(*g), create_graph);
            continue;
        }
        passed.push_back(n);
        input_gradients outs;
        if (g) outs = run_rule(*held, *g);
        for (std::size_t i = 0; i < n->inputs.size(); ++i) {
            tape_node* in = n->inputs[i].get();
            if (in == nullptr) continue;
            if (i < outs.size() && outs[i]) add_into(gradients[in], conform(std::move(*outs[i]), *in));
            if (--pending[in] == 0) ready.push_back(&n->inputs[i]);
        }
    }
    if (!retain)
        for (tape_node* n : passed) {
            n->rule = nullptr;
            n->released = true;
        }
    return captured;
}

// --- the members of the handles (nt/detail/handle_ops.hpp) --------------------------

tensor_base mark_with_grad(const tensor_base& t) {
    if (!is_floating(t.type()))
        throw error(errc::invalid_argument, "with_grad: " + t.describe() + " holds " + std::string(numpy_name(t.type())) +
                                                " elements; only nt::half, float and double tensors take gradients "
                                                "(convert first: t.astype<float>().with_grad())");
    if (const auto& n = t.grad_node(); n && !n->leaf)
        throw error(errc::invalid_argument, "with_grad: " + t.describe() + " is the result of '" + n->op +
                                                "', not a leaf; gradients reach it through its inputs (mark a "
                                                "fresh leaf with t.detach().with_grad())");
    if (t.grad_node()) return t;
    tensor_base out = t;
    auto n = make_tape_node();
    n->op = "with_grad";
    n->leaf = std::make_unique<leaf_gradient>();
    n->type = t.type();
    n->shape.assign(t.shape());
    n->names.assign(t.names());
    out.set_grad_node(std::move(n));
    return out;
}

void backward_from(const tensor_base& y, const tensor_base* seed, const backward_options& options) {
    const auto& n = y.grad_node();
    if (!n)
        throw error(errc::invalid_argument,
                    "backward: " + y.describe() +
                        " does not require a gradient: no tensor it was computed from was marked with_grad(), or it "
                        "was computed under nt::no_grad");
    any_tensor s;
    if (seed != nullptr) {
        if (!same_spec(*seed, y))
            throw error(errc::invalid_argument, "backward: the seed " + seed->describe() + " must have the shape and names of " +
                                                    y.describe());
        s = any_tensor(seed->without_grad_node());
        if (options.create_graph) s = any_tensor(*seed);
    } else {
        if (y.size() != 1)
            throw error(errc::invalid_argument,
                        "backward: " + y.describe() + " has " + std::to_string(y.size()) +
                            " elements; backward() without a seed needs one element (reduce first, e.g. "
                            "nt::sum(y).backward(), or pass the seed: y.backward(seed))");
        s = scalar_of(y.type(), 1.0);
        s = s.reshape(y.shape(), y.names());
    }
    const backward_root root{n, s};
    (void)run_backward({&root, 1}, {}, true, options.retain_graph || options.create_graph, options.create_graph);
}

tensor_base grad_of(const tensor_base& t) {
    const auto& n = t.grad_node();
    if (!n)
        throw error(errc::no_gradient, "grad: " + t.describe() +
                                           " does not take part in a graph; mark it with t.with_grad() before "
                                           "computing from it, then call backward()");
    if (!n->leaf)
        throw error(errc::no_gradient, "grad: " + t.describe() + " is the result of '" + n->op +
                                           "'; only leaves (tensors marked with_grad) keep a gradient. Use "
                                           "nt::grad(f, x) or nt::vjp for gradients with respect to computed tensors");
    std::lock_guard lock(n->leaf->mutex);
    if (!n->leaf->value)
        throw error(errc::no_gradient, "grad: no gradient has reached " + t.describe() +
                                           " yet: call backward() on a value computed from it (one that depends on "
                                           "it), or check has_grad() first");
    return *n->leaf->value;
}

bool has_grad_of(const tensor_base& t) noexcept {
    const auto& n = t.grad_node();
    if (!n || !n->leaf) return false;
    std::lock_guard lock(n->leaf->mutex);
    return n->leaf->value.has_value();
}

void zero_grad_of(const tensor_base& t) {
    const auto& n = t.grad_node();
    if (!n || !n->leaf) return;
    std::lock_guard lock(n->leaf->mutex);
    if (n->leaf->value) n->leaf->value = zeros_of(n->type, n->shape.span(), n->names.span()).base();
}

}  // namespace nt::detail

namespace nt {

no_grad::no_grad() noexcept : previous_(detail::recording) { detail::recording = false; }
no_grad::~no_grad() { detail::recording = previous_; }

}  // namespace nt
