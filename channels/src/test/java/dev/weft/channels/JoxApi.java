package dev.weft.channels;

import java.util.ArrayList;
import java.util.List;

/**
 * The public API of jox 1.1.2 ({@code com.softwaremill.jox:channels}, package {@code
 * com.softwaremill.jox}), written down by hand as data: every public type, constructor, field and
 * method, including the implicit public constructors and the record members. jox is not a
 * dependency of this build; this list is what {@link JoxApiTableTest} checks the README's
 * migration table against.
 *
 * <p>Sources: the 1.1.1 jar and sources jar from Maven Central ({@code javap -public} of every
 * class, and the sources for which methods are {@code default}); 1.1.2 is not on Maven Central
 * (its metadata lists 0.3.1, 0.4.0, 1.0.0, 1.0.1 and 1.1.1). What 1.1.2 adds to 1.1.1 was read in
 * jox's repository sources of {@code Source.java} and {@code Sink.java} after 1.1.1 (the index
 * behind weft's search tools; {@code Sink.java} at commit c4ec274b), and in its test {@code
 * ChannelTrySendReceiveTest}: {@code Source.tryReceive()} and {@code tryReceiveOrClosed()}, {@code
 * Sink.trySendOrClosed(T)}, all default methods (jox's "select-based fallback for binary
 * compatibility"), with {@code Sink.trySend(T)} now built on {@code trySendOrClosed}. {@code
 * Channel} overrides those interface methods; methods are listed once, under the type that
 * declares them.
 */
final class JoxApi {
    private JoxApi() {}

    /** What kind of member an entry is; for methods, how it is declared. */
    enum Kind {
        TYPE,
        CONSTRUCTOR,
        FIELD,
        /** A static method. */
        STATIC,
        /** An abstract interface method: a class implementing the interface must provide it. */
        ABSTRACT,
        /** A default interface method. */
        DEFAULT,
        /** A concrete instance method of a class (or record). */
        METHOD
    }

    /**
     * One public member of jox. {@code params} are written as in jox's source, with generics
     * ({@code T, Sink<T>...}); {@code null} for types and fields.
     */
    record Entry(String owner, String name, String params, Kind kind) {
        /** The text of the README table's first column: {@code Owner.name(params)} and so on. */
        String key() {
            return switch (kind) {
                case TYPE -> owner;
                case FIELD -> owner + "." + name;
                case CONSTRUCTOR -> "new " + owner + "(" + params + ")";
                default -> owner + "." + name + "(" + params + ")";
            };
        }

        int parameterCount() {
            return Signatures.splitParams(params).size();
        }
    }

    static final List<Entry> ENTRIES = build();

    private static List<Entry> build() {
        List<Entry> e = new ArrayList<>();
        for (String type : List.of("Channel", "Source", "Sink", "CloseableChannel", "Select", "SelectClause",
                "ChannelClosed", "ChannelDone", "ChannelError", "ChannelClosedException", "ChannelDoneException",
                "ChannelErrorException")) {
            e.add(new Entry(type, type, null, Kind.TYPE));
        }

        // public final class Channel<T> implements Source<T>, Sink<T>; its constructor is private
        e.add(new Entry("Channel", "DEFAULT_BUFFER_SIZE", null, Kind.FIELD));
        e.add(new Entry("Channel", "newRendezvousChannel", "", Kind.STATIC));
        e.add(new Entry("Channel", "newBufferedChannel", "int", Kind.STATIC));
        e.add(new Entry("Channel", "newBufferedDefaultChannel", "", Kind.STATIC));
        e.add(new Entry("Channel", "newUnlimitedChannel", "", Kind.STATIC));
        e.add(new Entry("Channel", "toString", "", Kind.METHOD));

        // public interface CloseableChannel
        e.add(new Entry("CloseableChannel", "done", "", Kind.ABSTRACT));
        e.add(new Entry("CloseableChannel", "doneOrClosed", "", Kind.ABSTRACT));
        e.add(new Entry("CloseableChannel", "error", "Throwable", Kind.ABSTRACT));
        e.add(new Entry("CloseableChannel", "errorOrClosed", "Throwable", Kind.ABSTRACT));
        e.add(new Entry("CloseableChannel", "isClosedForSend", "", Kind.DEFAULT));
        e.add(new Entry("CloseableChannel", "isClosedForReceive", "", Kind.DEFAULT));
        e.add(new Entry("CloseableChannel", "closedForSend", "", Kind.ABSTRACT));
        e.add(new Entry("CloseableChannel", "closedForReceive", "", Kind.ABSTRACT));

        // public interface Sink<T> extends CloseableChannel
        e.add(new Entry("Sink", "send", "T", Kind.ABSTRACT));
        e.add(new Entry("Sink", "sendOrClosed", "T", Kind.ABSTRACT));
        e.add(new Entry("Sink", "trySend", "T", Kind.DEFAULT));
        e.add(new Entry("Sink", "trySendOrClosed", "T", Kind.DEFAULT));
        e.add(new Entry("Sink", "trySend", "T, Sink<T>...", Kind.STATIC));
        e.add(new Entry("Sink", "sendClause", "T", Kind.ABSTRACT));
        e.add(new Entry("Sink", "sendClause", "T, Supplier<U>", Kind.ABSTRACT));

        // public interface Source<T> extends CloseableChannel
        e.add(new Entry("Source", "receive", "", Kind.ABSTRACT));
        e.add(new Entry("Source", "receiveOrClosed", "", Kind.ABSTRACT));
        e.add(new Entry("Source", "tryReceive", "", Kind.DEFAULT));
        e.add(new Entry("Source", "tryReceiveOrClosed", "", Kind.DEFAULT));
        e.add(new Entry("Source", "receiveClause", "", Kind.ABSTRACT));
        e.add(new Entry("Source", "receiveClause", "Function<T, U>", Kind.ABSTRACT));
        e.add(new Entry("Source", "forEach", "Consumer<T>", Kind.DEFAULT));
        e.add(new Entry("Source", "toList", "", Kind.DEFAULT));

        // public class Select (non-final, implicit public constructor)
        e.add(new Entry("Select", "Select", "", Kind.CONSTRUCTOR));
        e.add(new Entry("Select", "select", "SelectClause<? extends U>...", Kind.STATIC));
        e.add(new Entry("Select", "selectOrClosed", "SelectClause<? extends U>...", Kind.STATIC));
        e.add(new Entry("Select", "selectWithin", "Duration, SelectClause<? extends U>...", Kind.STATIC));
        e.add(new Entry("Select", "selectOrClosedWithin", "Duration, U, SelectClause<? extends U>...", Kind.STATIC));
        e.add(new Entry("Select", "defaultClause", "T", Kind.STATIC));
        e.add(new Entry("Select", "defaultClause", "Supplier<T>", Kind.STATIC));
        e.add(new Entry("Select", "defaultClauseNull", "", Kind.STATIC));

        // public abstract class SelectClause<T>: implicit public constructor, package-private abstract methods
        e.add(new Entry("SelectClause", "SelectClause", "", Kind.CONSTRUCTOR));

        // public sealed interface ChannelClosed permits ChannelDone, ChannelError
        e.add(new Entry("ChannelClosed", "toException", "", Kind.ABSTRACT));
        e.add(new Entry("ChannelClosed", "channel", "", Kind.ABSTRACT));

        // public record ChannelDone(Channel<?> channel) implements ChannelClosed
        e.add(new Entry("ChannelDone", "ChannelDone", "Channel<?>", Kind.CONSTRUCTOR));
        e.add(new Entry("ChannelDone", "channel", "", Kind.METHOD));
        e.add(new Entry("ChannelDone", "toException", "", Kind.METHOD));
        e.add(new Entry("ChannelDone", "toString", "", Kind.METHOD));
        e.add(new Entry("ChannelDone", "equals", "Object", Kind.METHOD));
        e.add(new Entry("ChannelDone", "hashCode", "", Kind.METHOD));

        // public record ChannelError(Throwable cause, Channel<?> channel) implements ChannelClosed
        e.add(new Entry("ChannelError", "ChannelError", "Throwable, Channel<?>", Kind.CONSTRUCTOR));
        e.add(new Entry("ChannelError", "cause", "", Kind.METHOD));
        e.add(new Entry("ChannelError", "channel", "", Kind.METHOD));
        e.add(new Entry("ChannelError", "toException", "", Kind.METHOD));
        e.add(new Entry("ChannelError", "toString", "", Kind.METHOD));
        e.add(new Entry("ChannelError", "equals", "Object", Kind.METHOD));
        e.add(new Entry("ChannelError", "hashCode", "", Kind.METHOD));

        // public sealed class ChannelClosedException extends RuntimeException permits the two below
        e.add(new Entry("ChannelClosedException", "ChannelClosedException", "", Kind.CONSTRUCTOR));
        e.add(new Entry("ChannelClosedException", "ChannelClosedException", "Throwable", Kind.CONSTRUCTOR));
        e.add(new Entry("ChannelDoneException", "ChannelDoneException", "", Kind.CONSTRUCTOR));
        e.add(new Entry("ChannelErrorException", "ChannelErrorException", "Throwable", Kind.CONSTRUCTOR));
        return List.copyOf(e);
    }
}
