package dev.weft.channels;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the member signatures of the README's migration table ({@code Type}, {@code
 * Type.FIELD}, {@code new Type(params)}, {@code Type.method(params)}, with parameters written as in
 * source: {@code T, Sink<T>...}) and resolves them against weft's public API by reflection.
 */
final class Signatures {
    private Signatures() {}

    private static final Pattern SIGNATURE =
            Pattern.compile("(new )?([A-Z]\\w*)(?:\\.(\\w+))?(?:\\((.*)\\))?");

    /** Type variables and the other simple names the table uses, erased. */
    private static final Map<String, Class<?>> TYPES = Map.ofEntries(
            Map.entry("T", Object.class),
            Map.entry("U", Object.class),
            Map.entry("Object", Object.class),
            Map.entry("int", int.class),
            Map.entry("Duration", Duration.class),
            Map.entry("Throwable", Throwable.class),
            Map.entry("Function", Function.class),
            Map.entry("Supplier", Supplier.class),
            Map.entry("Consumer", Consumer.class),
            Map.entry("String", String.class));

    /** Splits a parameter list at its top-level commas: {@code "Function<T, U>, int"} has two. */
    static List<String> splitParams(String params) {
        List<String> out = new ArrayList<>();
        if (params == null || params.isBlank()) {
            return out;
        }
        int depth = 0;
        int start = 0;
        for (int i = 0; i < params.length(); i++) {
            char c = params.charAt(i);
            if (c == '<') {
                depth++;
            } else if (c == '>') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(params.substring(start, i).strip());
                start = i + 1;
            }
        }
        out.add(params.substring(start).strip());
        return out;
    }

    /**
     * The weft member a signature names: a {@link Class}, {@link Field}, {@link Constructor} or
     * {@link Method}, public; throws {@link IllegalArgumentException} with the reason when there
     * is none.
     */
    static Object resolve(String signature) {
        Matcher m = SIGNATURE.matcher(signature.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a signature: " + signature);
        }
        boolean constructor = m.group(1) != null;
        Class<?> owner = weftType(m.group(2));
        if (!Modifier.isPublic(owner.getModifiers())) {
            throw new IllegalArgumentException("weft's " + owner.getSimpleName() + " is not public");
        }
        String member = m.group(3);
        String params = m.group(4);
        try {
            if (constructor) {
                if (member != null || params == null) {
                    throw new IllegalArgumentException("not a constructor: " + signature);
                }
                return owner.getConstructor(erase(params));
            }
            if (member == null) {
                if (params != null) {
                    throw new IllegalArgumentException("a constructor needs 'new': " + signature);
                }
                return owner;
            }
            if (params == null) {
                return owner.getField(member);
            }
            return owner.getMethod(member, erase(params));
        } catch (NoSuchMethodException | NoSuchFieldException e) {
            throw new IllegalArgumentException("weft has no public " + signature, e);
        }
    }

    /** Whether a resolved member is static ({@code false} for types and constructors). */
    static boolean isStatic(Object member) {
        return member instanceof Member mm && !(member instanceof Constructor<?>)
                && Modifier.isStatic(mm.getModifiers());
    }

    private static Class<?>[] erase(String params) {
        List<String> list = splitParams(params);
        Class<?>[] types = new Class<?>[list.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = erase1(list.get(i));
        }
        return types;
    }

    private static Class<?> erase1(String param) {
        String p = param.strip();
        if (p.endsWith("...")) {
            return Array.newInstance(erase1(p.substring(0, p.length() - 3)), 0).getClass();
        }
        int generic = p.indexOf('<');
        String raw = generic < 0 ? p : p.substring(0, generic);
        Class<?> known = TYPES.get(raw);
        return known != null ? known : weftType(raw);
    }

    private static Class<?> weftType(String simpleName) {
        try {
            return Class.forName("dev.weft.channels." + simpleName);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("weft has no type " + simpleName, e);
        }
    }
}
