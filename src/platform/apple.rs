//! Apple: the product version from `sysctl kern.osproductversion`; libSystem's version from
//! dyld's `NSVersionOfRunTimeLibrary("System")`.

use std::ffi::{c_char, CStr};

use super::uname::Uname;
use crate::report::Libc;

pub(super) fn os_version(_uname: Option<&Uname>) -> Option<String> {
    let mut buf = [0u8; 64];
    let mut len = buf.len();
    // SAFETY: sysctlbyname writes at most `len` bytes into `buf` and updates `len`.
    let rc = unsafe {
        libc::sysctlbyname(
            c"kern.osproductversion".as_ptr(),
            buf.as_mut_ptr().cast(),
            &mut len,
            std::ptr::null_mut(),
            0,
        )
    };
    if rc != 0 {
        return None;
    }
    let text = CStr::from_bytes_until_nul(&buf[..len.min(buf.len())]).ok()?;
    Some(text.to_string_lossy().into_owned())
}

type VersionFn = unsafe extern "C" fn(*const c_char) -> i32;

pub(super) fn libc(_uname: Option<&Uname>) -> Libc {
    let detail = "NSVersionOfRunTimeLibrary(\"System\"), as major.minor.patch";
    // SAFETY: dlsym only reads the name; a found symbol has dyld's documented signature.
    let version = unsafe {
        let f = libc::dlsym(libc::RTLD_DEFAULT, c"NSVersionOfRunTimeLibrary".as_ptr());
        if f.is_null() {
            None
        } else {
            let f = std::mem::transmute::<*mut libc::c_void, VersionFn>(f);
            let packed = f(c"System".as_ptr());
            // -1 means "not loaded"; the rest packs xxxx.yy.zz into 16.8.8 bits.
            (packed != -1).then(|| {
                let packed = packed as u32;
                format!(
                    "{}.{}.{}",
                    packed >> 16,
                    (packed >> 8) & 0xff,
                    packed & 0xff
                )
            })
        }
    };
    Libc {
        name: "libSystem".to_string(),
        version,
        detail: Some(detail.to_string()),
    }
}
