package dev.weft.bench;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;

/**
 * jox 1.1.1 beside the jox 1.0.1 dependency (impl {@code jox111}).
 *
 * <p>jox 1.1.1's POM names a parent POM that was never published to Maven Central, so Maven cannot
 * resolve it as a dependency; the build copies only its jar into the benchmarks jar, as the
 * resource {@value #JAR} (see bench/pom.xml). Both versions have the same class names, so this
 * class loads 1.1.1 in a child-first class loader of its own, together with a second copy of
 * {@link JoxAdapters}, whose jox references then link to 1.1.1. Everything else (the {@link Chan}
 * interfaces, the JDK) comes from the application class loader. Class loading happens once per
 * fork, before the measurement; the adapters' calls are then ordinary monomorphic calls.
 */
final class Jox111 {
    static final String VERSION = "1.1.1";
    static final String JAR = "/jox-" + VERSION + "/channels-" + VERSION + ".jar";
    private static final String JOX_PACKAGE = "com.softwaremill.jox.";
    private static final String POM_PROPERTIES = "META-INF/maven/com.softwaremill.jox/channels/pom.properties";

    private static JoxFactory factory;

    private Jox111() {
    }

    static synchronized JoxFactory factory() {
        if (factory == null) {
            try {
                factory = load();
            } catch (IOException | ReflectiveOperationException e) {
                throw new IllegalStateException("cannot load jox " + VERSION + " from " + JAR, e);
            }
        }
        return factory;
    }

    private static JoxFactory load() throws IOException, ReflectiveOperationException {
        Map<String, byte[]> classes = new HashMap<>();
        String version = null;
        try (InputStream in = Jox111.class.getResourceAsStream(JAR)) {
            if (in == null) {
                throw new IllegalStateException(JAR + " is not in the benchmarks jar: build it with "
                        + "./mvnw -pl bench -am package (bench/pom.xml copies the jar there)");
            }
            JarInputStream jar = new JarInputStream(in);
            for (JarEntry e; (e = jar.getNextJarEntry()) != null; ) {
                String name = e.getName();
                if (name.endsWith(".class") && name.startsWith("com/softwaremill/jox/")) {
                    classes.put(name.substring(0, name.length() - ".class".length()).replace('/', '.'), jar.readAllBytes());
                } else if (name.equals(POM_PROPERTIES)) {
                    Properties p = new Properties();
                    p.load(jar);
                    version = p.getProperty("version");
                }
            }
        }
        if (!VERSION.equals(version)) {
            throw new IllegalStateException(JAR + " holds jox " + version + ", not " + VERSION);
        }
        ChildFirst loader = new ChildFirst(classes, Jox111.class.getClassLoader());
        Class<?> adapters = loader.loadClass(JoxAdapters.class.getName());
        Class<?> channel = loader.loadClass(JOX_PACKAGE + "Channel");
        if (adapters.getClassLoader() != loader || channel.getClassLoader() != loader
                || channel == com.softwaremill.jox.Channel.class) {
            throw new IllegalStateException("jox " + VERSION + " did not load in its own class loader");
        }
        return (JoxFactory) adapters.getConstructor().newInstance();
    }

    /**
     * Defines jox's classes (from the nested jar) and {@link JoxAdapters} with its nested classes
     * (from the parent's resources) itself; asks the parent for everything else.
     */
    static final class ChildFirst extends ClassLoader {
        static {
            registerAsParallelCapable();
        }

        private final Map<String, byte[]> jox;

        ChildFirst(Map<String, byte[]> jox, ClassLoader parent) {
            super("jox-" + VERSION, parent);
            this.jox = jox;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] bytes = ownBytes(name);
                    if (bytes == null) {
                        return super.loadClass(name, resolve);
                    }
                    c = defineClass(name, bytes, 0, bytes.length);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        private byte[] ownBytes(String name) throws ClassNotFoundException {
            if (name.startsWith(JOX_PACKAGE)) {
                byte[] bytes = jox.get(name);
                if (bytes == null) {
                    throw new ClassNotFoundException(name + " is not in jox " + VERSION);
                }
                return bytes;
            }
            String adapters = JoxAdapters.class.getName();
            if (!name.equals(adapters) && !name.startsWith(adapters + "$")) {
                return null;
            }
            try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}
