package dev.weft.channels;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A class histogram of the live heap: HotSpot's {@code GC.class_histogram} diagnostic command, run
 * in-process; it runs a full GC first. {@link MemorySoak} measures the heap after GC with it:
 * {@link #liveBytes()} is the histogram's total without the GC's filler objects. (The heap "used"
 * after {@code System.gc()} is not precise enough: in a 32 MiB heap with the serial collector it
 * was seen to keep up to ~1 MiB of filler arrays, {@code jdk.internal.vm.FillerElement[]}, after
 * a soak whose live objects grew by 100 KiB.) It also says which classes grew.
 *
 * <p>Reached through reflection: the test sources compile inside the {@code dev.weft.channels}
 * module, which does not read {@code java.management}; the soak child runs on the class path.
 * {@link #take()} returns {@code null} where the command is not available.
 */
final class HeapHistogram {
    /** Bytes per class name. */
    private final Map<String, Long> bytes;
    /** Live instances per class name. */
    private final Map<String, Long> instances;

    private HeapHistogram(Map<String, Long> bytes, Map<String, Long> instances) {
        this.bytes = bytes;
        this.instances = instances;
    }

    /** Runs a full GC and takes the histogram; {@code null} if the JVM cannot. */
    static HeapHistogram take() {
        Map<String, Long> bytes = new HashMap<>();
        Map<String, Long> instances = new HashMap<>();
        try {
            Object server = Class.forName("java.lang.management.ManagementFactory")
                    .getMethod("getPlatformMBeanServer")
                    .invoke(null);
            Class<?> objectName = Class.forName("javax.management.ObjectName");
            Object name = objectName.getConstructor(String.class).newInstance("com.sun.management:type=DiagnosticCommand");
            Object out = Class.forName("javax.management.MBeanServerConnection")
                    .getMethod("invoke", objectName, String.class, Object[].class, String[].class)
                    .invoke(server, name, "gcClassHistogram", new Object[] {new String[0]},
                            new String[] {String[].class.getName()});
            for (String line : out.toString().split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length >= 4 && f[0].endsWith(":")) {
                    bytes.merge(f[3], Long.parseLong(f[2]), Long::sum);
                    instances.merge(f[3], Long.parseLong(f[1]), Long::sum);
                }
            }
        } catch (Exception | LinkageError e) {
            return null;
        }
        return bytes.isEmpty() ? null : new HeapHistogram(bytes, instances);
    }

    private static boolean isFiller(String className) {
        return className.startsWith("jdk.internal.vm.Filler") || className.startsWith("[Ljdk.internal.vm.Filler");
    }

    /** Live instances of the class named {@code className} (its binary name). */
    long instancesOf(String className) {
        return instances.getOrDefault(className, 0L);
    }

    /** Bytes of live objects, without the GC's filler objects. */
    long liveBytes() {
        long sum = 0;
        for (Map.Entry<String, Long> e : bytes.entrySet()) {
            if (!isFiller(e.getKey())) {
                sum += e.getValue();
            }
        }
        return sum;
    }

    /** The classes whose live bytes grew most since {@code before}, one line, at most {@code top}. */
    String growthSince(HeapHistogram before, int top) {
        List<Map.Entry<String, Long>> grown = new ArrayList<>();
        for (Map.Entry<String, Long> e : bytes.entrySet()) {
            long d = e.getValue() - before.bytes.getOrDefault(e.getKey(), 0L);
            if (d > 0 && !isFiller(e.getKey())) {
                grown.add(Map.entry(e.getKey(), d));
            }
        }
        grown.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        StringBuilder sb = new StringBuilder("grew most:");
        for (Map.Entry<String, Long> e : grown.subList(0, Math.min(top, grown.size()))) {
            sb.append(' ').append(e.getKey()).append(" +").append(e.getValue() / 1024).append(" KiB");
        }
        return sb.toString();
    }
}
