/**
 * weft: Go-style channels for Java 21+ virtual threads.
 *
 * <p>The module exports its one API package, {@link dev.weft.channels}; the implementation
 * classes in it are package-private. {@code dev.weft.channels.internal} (white-box hooks, not API)
 * is exported only to weft's stress suite, {@code dev.weft.stress}. The module has no runtime
 * dependencies: {@code jdk.jfr} is optional ({@code requires static}); without it the channels
 * work the same and only the JFR events are not available.
 */
// "module": the stress module is not observable when this module compiles, so javac would warn
// "module not found: dev.weft.stress" for the qualified export.
@SuppressWarnings("module")
module dev.weft.channels {
    requires static jdk.jfr;

    exports dev.weft.channels;
    exports dev.weft.channels.internal to dev.weft.stress;
}
