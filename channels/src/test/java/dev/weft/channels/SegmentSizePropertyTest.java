package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code weft.segmentSize} system property is read once, at class initialization, so each
 * value is checked in a fresh child JVM (running {@link SegmentSizeProbe}).
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

    private static String probe(String segmentSize) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = location(Channel.class) + File.pathSeparator + location(SegmentSizeProbe.class);
        List<String> command = segmentSize == null
                ? List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", classpath,
                        SegmentSizeProbe.class.getName())
                : List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Dweft.segmentSize=" + segmentSize,
                        "-cp", classpath, SegmentSizeProbe.class.getName());
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
