package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code weft.segmentSize} system property (and the spin properties read with it) is read
 * once, at class initialization, so each value is checked in a fresh child JVM (running {@link
 * SegmentSizeProbe}).
 */
@Timeout(120)
class SegmentSizePropertyTest {

    @Test
    void defaultIs32() throws Exception {
        String out = probe(null);
        assertTrue(out.contains("segmentSize=32"), out);
        assertTrue(out.contains("works"), out);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "3", "1024"})
    void validValuesAreUsed(String value) throws Exception {
        String out = probe(value);
        assertTrue(out.contains("segmentSize=" + value + "\n"), out);
        assertTrue(out.contains("works"), out);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-2", "1025", "abc"})
    void invalidValuesFailClassInitializationWithAClearMessage(String value) throws Exception {
        String out = probe(value);
        assertTrue(!out.contains("segmentSize="), "invalid value " + value + " was accepted:\n" + out);
        assertTrue(out.contains("java.lang.ExceptionInInitializerError"), out);
        assertTrue(out.contains("weft.segmentSize"), "the message should name the property:\n" + out);
    }

    /**
     * The spin properties are read with the segment size (see {@code Config}): a bad value fails
     * before the first channel exists, never inside a wait (where a thread would already hold a
     * cell).
     */
    @ParameterizedTest
    @ValueSource(strings = {"weft.spinMicros.platform=abc", "weft.spinMicros.platform=10001",
            "weft.spinMicros.platform=-1", "weft.spins.virtual=x", "weft.spins.virtual=-1",
            "weft.spins.virtualBuffered=-1", "weft.spins.virtualBuffered=1048577"})
    void invalidSpinPropertiesFailBeforeTheFirstChannel(String setting) throws Exception {
        String out = probe("weft.segmentSize", null, "-D" + setting);
        assertTrue(!out.contains("segmentSize=") && !out.contains("works"), setting + " was accepted:\n" + out);
        assertTrue(out.contains("java.lang.ExceptionInInitializerError"), out);
        String name = setting.substring(0, setting.indexOf('='));
        assertTrue(out.contains(name + " must be an integer"), "the message should name the property:\n" + out);
    }

    @Test
    void validSpinPropertiesAreAccepted() throws Exception {
        String out = probe("weft.segmentSize", null, "-Dweft.spinMicros.platform=0", "-Dweft.spins.virtual=0",
                "-Dweft.spins.virtualBuffered=64");
        assertTrue(out.contains("works"), out);
        assertTrue(out.contains("spinCeilings=0,64"), "each property reaches its channels:\n" + out);
    }

    private static String probe(String segmentSize) throws Exception {
        return probe("weft.segmentSize", segmentSize);
    }

    private static String probe(String property, String value, String... extraOptions) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = location(Channel.class) + File.pathSeparator + location(SegmentSizeProbe.class);
        List<String> command = new ArrayList<>(List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1"));
        if (value != null) {
            command.add("-D" + property + "=" + value);
        }
        command.addAll(List.of(extraOptions));
        command.addAll(List.of("-cp", classpath, SegmentSizeProbe.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] bytes = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "probe JVM did not exit");
        String out = new String(bytes, StandardCharsets.UTF_8).replace("\r\n", "\n");
        assertEquals(0, process.exitValue(), out);
        return out;
    }

    private static String location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
