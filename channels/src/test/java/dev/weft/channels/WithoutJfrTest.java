package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The module {@code requires static jdk.jfr}: a child JVM limited to {@code java.base} and {@code
 * dev.weft.channels} runs {@link NoJfrMain}, which waits in every way (so every JFR hook runs).
 */
class WithoutJfrTest {

    @Test
    void channelsWorkWithoutTheJfrModule() throws Exception {
        Path classes = Path.of(Channel.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path testClasses =
                Path.of(NoJfrMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = List.of(java.toString(),
                "--limit-modules", "java.base,dev.weft.channels",
                "--module-path", classes.toString(),
                "--patch-module", "dev.weft.channels=" + testClasses,
                "-m", "dev.weft.channels/" + NoJfrMain.class.getName());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child JVM hung");
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + "\n" + text);
        assertEquals("OK", text.strip(), text);
    }
}
