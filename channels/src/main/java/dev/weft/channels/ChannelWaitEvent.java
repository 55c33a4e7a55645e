package dev.weft.channels;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * A send or receive that waited at least the threshold. Disabled by default; enable it with
 * {@code -XX:StartFlightRecording:+dev.weft.ChannelWait#enabled=true} or a {@code .jfc} setting
 * (the threshold defaults to 20 ms: {@code +dev.weft.ChannelWait#threshold=1ms}; the {@code +} adds a setting that
 * the {@code .jfc} file does not have).
 */
@Name("dev.weft.ChannelWait")
@Label("Channel Wait")
@Category({"weft", "Channels"})
@Description("A send or receive on a weft channel that waited at least the threshold")
@Enabled(false)
@Threshold("20 ms")
@StackTrace(true)
final class ChannelWaitEvent extends Event {
    @Label("Channel")
    @Description("The channel: its name (or #id) and capacity")
    String channel;

    @Label("Operation")
    @Description("send or receive")
    String operation;

    @Label("Outcome")
    @Description("How the wait ended: rendezvous, close, interrupt, timeout, or retry (the partner was hit by an Error)")
    String outcome;
}
