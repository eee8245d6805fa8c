//! Gives the shared library a versioned SONAME on Linux: `libqe_ffi.so.<QE_ABI_VERSION>`, so a
//! program linked against one ABI never loads a library of another; on macOS, the install name
//! `@rpath/libqe_ffi.dylib` instead of the path it was built at.

fn main() {
    println!("cargo:rerun-if-changed=src/types.rs");
    let types = std::fs::read_to_string("src/types.rs").expect("src/types.rs");
    let abi = types
        .lines()
        .find_map(|l| l.strip_prefix("pub const QE_ABI_VERSION: u32 = "))
        .and_then(|rest| rest.strip_suffix(';'))
        .expect("QE_ABI_VERSION in src/types.rs");
    match std::env::var("CARGO_CFG_TARGET_OS").as_deref() {
        Ok("linux") => println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libqe_ffi.so.{abi}"),
        Ok("macos") => {
            println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libqe_ffi.dylib");
        }
        _ => {}
    }
}
