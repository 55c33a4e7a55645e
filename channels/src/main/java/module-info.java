/**
 * weft: Go-style channels for Java 21+ virtual threads.
 *
 * <p>The module exports only {@link dev.weft.channels}; everything else is internal.
 */
module dev.weft.channels {
    exports dev.weft.channels;
}
