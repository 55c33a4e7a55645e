package dev.weft.channels;

import dev.weft.channels.internal.SegmentWatch;
import java.lang.ref.Reference;
import java.util.List;
import java.util.Locale;

/**
 * Run in a child JVM with a small heap by {@link MemorySoakTest}: pushes many messages through one
 * traffic pattern ({@link SoakPatterns}) on each channel kind and checks that memory stays
 * bounded the way the garbage collector sees it.
 *
 * <p>For each kind: a warm-up of {@code count / 20} messages, then the heap after a full GC, then
 * {@code count} messages, then the heap after GC again with the channels still strongly
 * reachable. The heap after GC is the bytes of live objects in a class histogram ({@link
 * HeapHistogram}, which runs a full GC); where the JVM has none, the heap used after {@code
 * System.gc()}. A kind fails when the heap grew by more than {@link #GROWTH_BOUND_BYTES}, or when
 * more segments watched by its {@link SegmentWatch}es survive the GC than an idle channel may keep, or
 * when the pattern itself fails (a wrong value, a hang); the JVM dies with an {@code
 * OutOfMemoryError} when a leak fills the heap first.
 *
 * <p>Usage: {@code MemorySoak PATTERN COUNT [KIND ...]} (kinds default to all four). Prints one
 * {@code SOAK ...} line per kind, then {@code SOAK PASSED} or {@code SOAK FAILED}; exits 1 on
 * failure.
 */
public final class MemorySoak {
    /**
     * The heap may grow by at most this much between the start and the end of a soak (512 KiB;
     * measured: under 100 KiB without a leak, of which the watch's own weak references are ~90
     * bytes per 1,000 messages). A leak of 10 bytes per message (issue 8 Bug 1 at 32-cell
     * segments) exceeds it after about 52,000 messages; {@link MemorySoakTest}'s counts are at
     * least three times that.
     */
    static final long GROWTH_BOUND_BYTES = 512L << 10;

    private MemorySoak() {}

    public static void main(String[] args) throws Exception {
        String pattern = args[0];
        int count = Integer.parseInt(args[1]);
        List<String> kinds = args.length > 2 ? List.of(args).subList(2, args.length) : SoakPatterns.KINDS;
        boolean ok = true;
        for (String kind : kinds) {
            ok &= soak(pattern, kind, count);
        }
        System.out.println(ok ? "SOAK PASSED" : "SOAK FAILED");
        System.out.flush();
        System.exit(ok ? 0 : 1);
    }

    private static boolean soak(String pattern, String kind, int count) throws Exception {
        SoakPatterns.Soak soak = SoakPatterns.create(pattern, kind);
        String failure = null;
        Throwable details = null;
        long start = -1;
        long end = -1;
        long t0 = System.nanoTime();
        double seconds = 0;
        try {
            soak.run(Math.max(count / 20, 1));
            // the first histogram stays alive until the end, so it is measured at both ends
            HeapHistogram before = HeapHistogram.take();
            HeapHistogram startHistogram = before != null ? HeapHistogram.take() : null;
            start = startHistogram != null ? startHistogram.liveBytes() : usedAfterGc();
            startHistogram = null;
            t0 = System.nanoTime();
            soak.run(count);
            seconds = (System.nanoTime() - t0) / 1e9;
            HeapHistogram after = HeapHistogram.take();
            end = after != null ? after.liveBytes() : usedAfterGc();
            if (end - start > GROWTH_BOUND_BYTES) {
                failure = "heap after GC grew by " + kib(end - start) + " KiB, bound " + kib(GROWTH_BOUND_BYTES)
                        + " KiB" + (after != null ? "; " + after.growthSince(before, 8) : "");
            }
            for (SegmentWatch w : soak.watches) {
                w.assertCollected("after " + count + " " + soak.unit(), soak.extraSegments());
            }
        } catch (AssertionError | Exception e) {
            details = e;
            String msg = e.toString().lines().findFirst().orElse("");
            failure = failure == null ? msg : failure + "; " + msg;
        } finally {
            Reference.reachabilityFence(soak);
        }
        System.out.printf(Locale.ROOT,
                "SOAK pattern=%s kind=%s segmentSize=%d messages=%d unit=\"%s\"%s heapStartKiB=%d heapEndKiB=%d"
                        + " growthKiB=%d seconds=%.1f %s%n",
                pattern, kind, Channel.segmentSize(), count, soak.unit(), soak.detail(), kib(start), kib(end),
                kib(end - start), seconds > 0 ? seconds : (System.nanoTime() - t0) / 1e9, failure == null ? "ok" : "FAILED: " + failure);
        if (details != null) {
            details.printStackTrace(System.out);
        }
        System.out.flush();
        return failure == null;
    }

    private static long kib(long bytes) {
        return bytes / 1024;
    }

    /** The heap in use after a full GC: the smallest of three rounds. */
    static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            best = Math.min(best, rt.totalMemory() - rt.freeMemory());
        }
        return best;
    }
}
