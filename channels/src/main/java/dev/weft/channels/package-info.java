/**
 * Go-style channels for virtual (and platform) threads: rendezvous, buffered and unlimited
 * {@link dev.weft.channels.Channel}s with closing, interruption-safe and timed operations, and
 * {@link dev.weft.channels.Select}.
 *
 * <p>The names and semantics follow jox 1.x ({@code com.softwaremill.jox}), so migrating is a
 * matter of changing imports.
 */
package dev.weft.channels;
