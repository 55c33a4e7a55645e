/**
 * weft: Go-style channels for Java 21+ virtual threads.
 *
 * <p>The module exports its one package, {@link dev.weft.channels}; the implementation classes in
 * it are package-private. It has no runtime dependencies: {@code jdk.jfr} is optional ({@code
 * requires static}); without it the channels work the same and only the JFR events are not
 * available.
 */
module dev.weft.channels {
    requires static jdk.jfr;

    exports dev.weft.channels;
}
