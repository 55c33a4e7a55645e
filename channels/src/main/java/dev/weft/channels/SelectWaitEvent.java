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
 * A select that waited at least the threshold. Disabled by default; enable it with {@code
 * -XX:StartFlightRecording:+dev.weft.SelectWait#enabled=true} or a {@code .jfc} setting (the
 * threshold defaults to 20 ms).
 */
@Name("dev.weft.SelectWait")
@Label("Select Wait")
@Category({"weft", "Channels"})
@Description("A select over weft channels that waited at least the threshold")
@Enabled(false)
@Threshold("20 ms")
@StackTrace(true)
final class SelectWaitEvent extends Event {
    @Label("Clauses")
    @Description("The select's clauses: operation and channel of each (at most 8 shown)")
    String clauses;

    @Label("Selected Clause")
    @Description("Index of the clause that completed or whose channel was closed; -1 for none")
    int selectedClause;

    @Label("Outcome")
    @Description("How the wait ended: rendezvous, close, interrupt or timeout")
    String outcome;
}
