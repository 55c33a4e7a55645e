package dev.weft.channels;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Compiles one source file against weft with the JDK's javac, in this JVM (through {@link
 * java.util.spi.ToolProvider}, as {@link ReadmeExamplesTest} does), to check what compiles and
 * what javac reports. Used for overload-resolution checks that a normal test cannot express.
 */
final class InProcessJavac {
    private InProcessJavac() {}

    /** javac's exit code and its output in {@code -XDrawDiagnostics} form ({@code compiler.err.xxx}). */
    record Result(int exitCode, String diagnostics) {
        boolean compiled() {
            return exitCode == 0;
        }
    }

    static Result compile(String className, String source) throws IOException, URISyntaxException {
        java.util.spi.ToolProvider javac = java.util.spi.ToolProvider.findFirst("javac")
                .orElseThrow(() -> new AssertionError("the tests must run on a JDK (no javac tool found)"));
        Path dir = Files.createTempDirectory("weft-javac-");
        try {
            Path file = dir.resolve(className + ".java");
            Files.writeString(file, source, StandardCharsets.UTF_8);
            Path classes = Files.createDirectories(dir.resolve("classes"));
            StringWriter out = new StringWriter();
            int rc = javac.run(new PrintWriter(out), new PrintWriter(out), "-classpath", classpath(), "-d",
                    classes.toString(), "--release", "21", "-proc:none", "-implicit:none", "-Xlint:none",
                    "-encoding", "UTF-8", "-XDrawDiagnostics", file.toString());
            return new Result(rc, out.toString());
        } finally {
            deleteRecursively(dir);
        }
    }

    /** Deletes a directory tree. */
    static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The class path of the compiled examples: weft's classes and this JVM's class and module paths. */
    static String classpath() throws URISyntaxException {
        Set<String> entries = new LinkedHashSet<>();
        entries.add(Path.of(Channel.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            String value = System.getProperty(property);
            if (value != null) {
                for (String e : value.split(File.pathSeparator)) {
                    if (!e.isBlank()) {
                        entries.add(e);
                    }
                }
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
