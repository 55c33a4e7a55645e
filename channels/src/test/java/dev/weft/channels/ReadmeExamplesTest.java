package dev.weft.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * Compiles and runs every {@code ```java} block of the project README (see the comment at the
 * top of its "Quick start" section for the convention): a block that declares a class with
 * {@code public static void main} is compiled as is, any other block becomes the body of a
 * {@code main} method with the imports in {@link #WRAPPER_IMPORTS}. Blocks run with assertions
 * enabled, so a wrong result, an exception or a compile error fails the test.
 */
@Timeout(300)
class ReadmeExamplesTest {
    static final String WRAPPER_IMPORTS = """
            import dev.weft.channels.*;
            import java.time.Duration;
            import java.util.*;
            import java.util.concurrent.*;
            """;
    private static final Pattern PUBLIC_CLASS = Pattern.compile("public\\s+(?:final\\s+)?class\\s+(\\w+)");
    private static final Duration RUN_LIMIT = Duration.ofSeconds(60);

    /** A fenced java block: its text and the README line of its first code line. */
    record Block(int number, int firstLine, String code) {}

    static Path readme() {
        // surefire runs in the module directory (channels/); the README is at the repository root
        for (Path p : List.of(Path.of("..", "README.md"), Path.of("README.md"))) {
            if (Files.isRegularFile(p) && !p.toAbsolutePath().normalize().getParent().endsWith("channels")) {
                return p;
            }
        }
        return fail("README.md not found from " + Path.of("").toAbsolutePath());
    }

    /** The version in the root pom.xml (beside the README), which the README's snippets must give. */
    static String projectVersion() throws IOException {
        String pom = Files.readString(readme().resolveSibling("pom.xml"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("<artifactId>weft-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertTrue(m.find(), "no weft-parent version in the root pom.xml");
        return m.group(1);
    }

    static List<Block> javaBlocks(String markdown) {
        List<Block> blocks = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].strip().equals("```java")) {
                int start = i + 1;
                StringBuilder code = new StringBuilder();
                int j = start;
                while (j < lines.length && !lines[j].strip().equals("```")) {
                    code.append(lines[j]).append('\n');
                    j++;
                }
                if (j == lines.length) {
                    fail("unterminated ```java block at README line " + i);
                }
                blocks.add(new Block(blocks.size() + 1, start + 1, code.toString()));
                i = j;
            }
        }
        return blocks;
    }

    @TestFactory
    Stream<DynamicTest> everyJavaBlockCompilesAndRuns() throws IOException {
        List<Block> blocks = javaBlocks(Files.readString(readme(), StandardCharsets.UTF_8));
        assertTrue(blocks.size() >= 10, "expected the README's examples, found " + blocks.size() + " java blocks");
        return blocks.stream().map(b -> DynamicTest.dynamicTest(
                "README example " + b.number() + " (line " + b.firstLine() + ")", () -> compileAndRun(b)));
    }

    @Test
    void readmeStatesCoordinatesAndTheBuildCommand() throws IOException {
        String text = Files.readString(readme(), StandardCharsets.UTF_8);
        for (String required : List.of("<groupId>dev.weft</groupId>", "<artifactId>weft-channels</artifactId>",
                "<version>" + projectVersion() + "</version>", "requires dev.weft.channels;", "./mvnw -B verify",
                "./mvnw -pl channels -am install -DskipTests", "implementation(\"dev.weft:weft-channels:" + projectVersion() + "\")",
                "## Migrating from jox", "com.softwaremill.jox", "selectUnbiased", "selectWithin")) {
            assertTrue(text.contains(required), "README should mention " + required);
        }
    }

    // ---------------------------------------------------------------- the harness can fail

    @Test
    void harnessReportsCompileErrorsWithReadmeLines() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> compileAndRun(new Block(99, 500, "int x = \"not an int\";\n")));
        assertTrue(e.getMessage().contains("README line 500"), e.getMessage());
    }

    @Test
    void harnessRunsBlocksWithAssertionsEnabled() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> compileAndRun(new Block(98, 1, "assert 1 + 1 == 3 : \"arithmetic\";\n")));
        assertInstanceOf(AssertionError.class, e.getCause());
        assertEquals("arithmetic", e.getCause().getMessage());
    }

    @Test
    void harnessReportsExceptions() {
        AssertionError e = assertThrows(AssertionError.class, () -> compileAndRun(new Block(97, 1,
                "Channel<String> ch = Channel.newRendezvousChannel();\nch.done();\nch.receive();\n")));
        assertInstanceOf(ChannelDoneException.class, e.getCause());
    }

    @Test
    void harnessRunsFullClasses() throws Exception {
        compileAndRun(new Block(96, 1, """
                import dev.weft.channels.Channel;
                public class Full {
                    public static void main(String[] args) throws Exception {
                        Channel<Integer> ch = Channel.newBufferedChannel(1);
                        ch.send(1);
                        assert ch.receive() == 1;
                    }
                }
                """));
    }

    // ---------------------------------------------------------------- compile and run

    static void compileAndRun(Block block) throws Exception {
        String className;
        String source;
        int lineOffset; // README line = source line + lineOffset
        Matcher m = PUBLIC_CLASS.matcher(block.code());
        if (block.code().contains("static void main") && m.find()) {
            className = m.group(1);
            source = block.code();
            lineOffset = block.firstLine() - 1;
        } else {
            className = "ReadmeExample" + block.number();
            String header = WRAPPER_IMPORTS + "\npublic class " + className + " {\n"
                    + "    public static void main(String[] args) throws Exception {\n";
            source = header + block.code() + "    }\n}\n";
            lineOffset = block.firstLine() - 1 - (int) header.lines().count();
        }
        Path classes = compile(className, source, lineOffset);
        try {
            run(block, className, classes);
        } finally {
            InProcessJavac.deleteRecursively(classes.getParent());
        }
    }

    /**
     * Compiles with the JDK's javac, in this JVM, through {@link java.util.spi.ToolProvider} (it
     * lives in java.base, so this works whether the tests run on the class path or patched into
     * the module {@code dev.weft.channels}, which does not read {@code java.compiler}).
     */
    private static Path compile(String className, String source, int lineOffset) throws Exception {
        java.util.spi.ToolProvider javac = java.util.spi.ToolProvider.findFirst("javac")
                .orElseThrow(() -> new AssertionError("the tests must run on a JDK (no javac tool found)"));
        Path dir = Files.createTempDirectory("weft-readme-");
        Path file = dir.resolve("src").resolve(className + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, source, StandardCharsets.UTF_8);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        StringWriter out = new StringWriter();
        int rc = javac.run(new PrintWriter(out), new PrintWriter(out), "-classpath", InProcessJavac.classpath(), "-d",
                classes.toString(), "--release", "21", "-proc:none", "-implicit:none", "-Xlint:none",
                "-encoding", "UTF-8", "-XDrawDiagnostics", file.toString());
        if (rc != 0) {
            InProcessJavac.deleteRecursively(dir);
            StringBuilder message = new StringBuilder("README example does not compile:\n");
            // -XDrawDiagnostics: "Name.java:LINE:COL: compiler.err.xxx: args"
            Matcher m = Pattern.compile("(?m)^\\S*?" + Pattern.quote(className) + "\\.java:(\\d+):(\\d+): (.*)$")
                    .matcher(out.toString());
            while (m.find()) {
                message.append("  README line ").append(Integer.parseInt(m.group(1)) + lineOffset).append(": ")
                        .append(m.group(3)).append('\n');
            }
            message.append("javac output:\n").append(out).append("source:\n").append(source);
            throw new AssertionError(message.toString());
        }
        return classes;
    }

    private static void run(Block block, String className, Path classes) throws Exception {
        URLClassLoader loader = new URLClassLoader("readme-examples", new URL[] {classes.toUri().toURL()},
                ReadmeExamplesTest.class.getClassLoader());
        loader.setDefaultAssertionStatus(true);
        Method main = Class.forName(className, true, loader).getMethod("main", String[].class);
        Throwable[] failure = new Throwable[1];
        Thread runner = Thread.ofPlatform().name("readme-example-" + block.number()).daemon(true).start(() -> {
            try {
                main.invoke(null, (Object) new String[0]);
            } catch (InvocationTargetException e) {
                failure[0] = e.getCause();
            } catch (Throwable t) {
                failure[0] = t;
            }
        });
        try {
            if (!runner.join(RUN_LIMIT)) {
                runner.interrupt();
                fail("README example " + block.number() + " (line " + block.firstLine() + ") did not finish within "
                        + RUN_LIMIT + ":\n" + Forked.stack(runner));
            }
        } finally {
            loader.close();
        }
        if (failure[0] != null) {
            throw new AssertionError("README example " + block.number() + " (line " + block.firstLine()
                    + ") failed: " + failure[0], failure[0]);
        }
    }
}
