/**
 * Not API: white-box hooks for weft's own test and stress suites.
 *
 * <p>The module exports this package only to {@code dev.weft.stress} (a qualified export); the
 * library's own tests, patched into the module, use it too. On the class path every public class
 * is reachable, but nothing here is supported, documented for users or kept compatible: it may
 * change or disappear in any release.
 */
package dev.weft.channels.internal;
