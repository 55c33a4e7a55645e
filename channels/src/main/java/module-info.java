/**
 * weft: Go-style channels for Java 21+ virtual threads.
 *
 * <p>The module exports its one package, {@link dev.weft.channels}; the implementation classes in
 * it are package-private.
 */
module dev.weft.channels {
    exports dev.weft.channels;
}
