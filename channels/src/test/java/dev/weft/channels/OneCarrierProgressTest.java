package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 8, Bug 4 and its blind spot "One carrier": with a single virtual-thread carrier, every
 * thread must keep making progress. Runs {@link OneCarrierStress} in a child JVM whose scheduler
 * has exactly one carrier ({@code jdk.virtualThreadScheduler.parallelism=1}, and {@code
 * maxPoolSize=1} so that it cannot add a compensating carrier), with virtual and platform
 * threads doing selects in both clause orders with ~1 ms timeouts, plain, timed and
 * try-operations, interrupts, and periodic done/error with fresh channels. The child fails (exit
 * status not 0, with the stuck threads' stacks in its output) when any worker completes no
 * operation for a whole window.
 *
 * <p>Tuning: {@code -Dweft.test.progressSeconds} (run length, default 20) and {@code
 * -Dweft.test.progressWindowSeconds} (default 3). The segment size of this JVM ({@code
 * weft.segmentSize}, set to 2 by the suite's second pass) is passed on to the child, so the
 * stress runs once per pass, at each segment size.
 *
 * <p>On a0d3073 (before the fix of Bug 4) it failed in most runs: virtual selectors stuck in
 * {@code awaitLargerSelect}/{@code Waiting.backoff} while the one carrier re-ran yielders.
 */
@Tag("progress")
@Timeout(300)
class OneCarrierProgressTest {

    @Test
    void everyThreadProgressesInEveryWindowWithOneCarrier() throws Exception {
        int seconds = Integer.getInteger("weft.test.progressSeconds", 20);
        int window = Integer.getInteger("weft.test.progressWindowSeconds", 3);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = location(Channel.class) + File.pathSeparator + location(OneCarrierStress.class);
        List<String> command = new ArrayList<>(List.of(
                java,
                "-Xmx256m",
                "-Djdk.virtualThreadScheduler.parallelism=1",
                "-Djdk.virtualThreadScheduler.maxPoolSize=1",
                "-Djdk.virtualThreadScheduler.minRunnable=1"));
        String segmentSize = System.getProperty("weft.segmentSize");
        if (segmentSize != null) {
            command.add("-Dweft.segmentSize=" + segmentSize);
        }
        command.addAll(List.of("-cp", classpath, OneCarrierStress.class.getName(),
                String.valueOf(seconds), String.valueOf(window)));

        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread reader = Thread.ofPlatform().daemon(true).start(() -> copy(process.getInputStream(), out));
        // the child halts itself on a stall; this deadline only catches a child that hangs anyway
        boolean exited = process.waitFor(seconds + 4L * window + 60L, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        reader.join(10_000);
        String output;
        synchronized (out) {
            output = out.toString(StandardCharsets.UTF_8);
        }
        if (!exited) {
            fail("the stress JVM did not exit; its output:\n" + output);
        }
        assertEquals(0, process.exitValue(), "the one-carrier stress failed; its output:\n" + output);
        assertTrue(output.contains("progress: ok"), output);
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        byte[] buf = new byte[8192];
        try {
            int n;
            while ((n = in.read(buf)) > 0) {
                synchronized (out) {
                    out.write(buf, 0, n);
                }
            }
        } catch (IOException e) {
            // the child was killed: keep what it printed
        }
    }

    private static String location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
