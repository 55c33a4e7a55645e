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
import org.junit.jupiter.api.Assertions;
import org.opentest4j.AssertionFailedError;

/**
 * Runs a replay's main class in a child JVM (for properties fixed per JVM, such as the segment
 * size) with fault injection on, and returns what it printed once it exited with 0.
 */
final class ChildJvm {
    private ChildJvm() {}

    static String run(Class<?> main, String... properties) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = String.join(File.pathSeparator,
                location(Channel.class), location(main),
                location(Assertions.class), location(AssertionFailedError.class));
        List<String> command = new ArrayList<>(List.of(java, "-Dweft.faults=true"));
        command.addAll(List.of(properties));
        command.addAll(List.of("-cp", classpath, main.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] bytes = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(150, TimeUnit.SECONDS), "the child JVM did not exit");
        String out = new String(bytes, StandardCharsets.UTF_8).replace("\r\n", "\n");
        assertEquals(0, process.exitValue(), out);
        return out;
    }

    private static String location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
