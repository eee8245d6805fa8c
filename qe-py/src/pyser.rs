//! A serde `Serializer` that builds Python objects directly (dicts, lists, ints, floats, strings,
//! `None`): the shapes of the JSON form (`serde_json`), without JSON text or a JSON tree in
//! between, and with exact 128-bit integers (totals spent are `i128`).

use std::fmt;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyList, PyString};
use serde::ser::{self, Serialize};

/// Why a value could not be built (a Python error while building it, or a serde error).
#[derive(Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Self {
        Error(e.to_string())
    }
}

type Out<'py> = Result<Bound<'py, PyAny>, Error>;

/// A hasher for the addresses and lengths of static strings: one multiply per word (the keys are
/// few and not chosen by anyone, so SipHash's resistance to collisions buys nothing here).
#[derive(Default)]
struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The interned Python string of a field name, made once per name and kept for good (the names
/// are the `&'static str`s of the types' serde forms, a fixed, small set).
fn key<'py>(py: Python<'py>, name: &'static str) -> Bound<'py, PyString> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::hash::BuildHasherDefault;
    thread_local! {
        static KEYS: RefCell<HashMap<(usize, usize), usize, BuildHasherDefault<AddressHasher>>> =
            RefCell::new(HashMap::default());
    }
    let id = (name.as_ptr() as usize, name.len());
    let ptr = KEYS.with(|k| {
        *k.borrow_mut()
            .entry(id)
            .or_insert_with(|| PyString::intern(py, name).into_ptr() as usize)
    });
    // SAFETY: `ptr` is a string object that this cache owns a reference to and never releases.
    unsafe { Bound::from_borrowed_ptr(py, ptr as *mut pyo3::ffi::PyObject).cast_into_unchecked() }
}

/// `value` as Python objects.
pub fn to_python<'py, T: Serialize + ?Sized>(py: Python<'py>, value: &T) -> Out<'py> {
    value.serialize(Ser(py))
}

/// The serializer (one per value).
#[derive(Clone, Copy)]
pub struct Ser<'py>(Python<'py>);

fn int<
    'py,
    T: IntoPyObject<'py, Target = pyo3::types::PyInt, Output = Bound<'py, pyo3::types::PyInt>>,
>(
    py: Python<'py>,
    v: T,
) -> Out<'py> {
    v.into_pyobject(py)
        .map(Bound::into_any)
        .map_err(|e| Error(e.into().to_string()))
}

/// A list being built.
pub struct Seq<'py> {
    py: Python<'py>,
    items: Vec<Bound<'py, PyAny>>,
    /// For a tuple variant: `{variant: [items]}`.
    variant: Option<&'static str>,
}

impl<'py> Seq<'py> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.items.push(to_python(self.py, value)?);
        Ok(())
    }
    fn finish(self) -> Out<'py> {
        let list = PyList::new(self.py, self.items)?.into_any();
        match self.variant {
            None => Ok(list),
            Some(v) => {
                let d = PyDict::new(self.py);
                d.set_item(key(self.py, v), list)?;
                Ok(d.into_any())
            }
        }
    }
}

/// A dict being built.
pub struct Map<'py> {
    py: Python<'py>,
    dict: Bound<'py, PyDict>,
    key: Option<Bound<'py, PyAny>>,
    /// For a struct variant: `{variant: {fields}}`.
    variant: Option<&'static str>,
}

impl<'py> Map<'py> {
    fn new(py: Python<'py>, variant: Option<&'static str>) -> Self {
        Map {
            py,
            dict: PyDict::new(py),
            key: None,
            variant,
        }
    }
    fn finish(self) -> Out<'py> {
        match self.variant {
            None => Ok(self.dict.into_any()),
            Some(v) => {
                let d = PyDict::new(self.py);
                d.set_item(key(self.py, v), self.dict)?;
                Ok(d.into_any())
            }
        }
    }
}

impl<'py> ser::Serializer for Ser<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    type SerializeSeq = Seq<'py>;
    type SerializeTuple = Seq<'py>;
    type SerializeTupleStruct = Seq<'py>;
    type SerializeTupleVariant = Seq<'py>;
    type SerializeMap = Map<'py>;
    type SerializeStruct = Map<'py>;
    type SerializeStructVariant = Map<'py>;

    fn serialize_bool(self, v: bool) -> Out<'py> {
        Ok(PyBool::new(self.0, v).to_owned().into_any())
    }
    fn serialize_i8(self, v: i8) -> Out<'py> {
        int(self.0, v)
    }
    fn serialize_i16(self, v: i16) -> Out<'py> {
        int(self.0, v)
    }
    fn serialize_i32(self, v: i32) -> Out<'py> {
        int(self.0, v)
    }
    fn serialize_i64(self, v: i64) -> Out<'py> {
        int(self.0, v)
    }
    fn serialize_i128(self, v: i128) -> Out<'py> {
        int(self.0, v)
    }
    fn serialize_u8(self, v: u8) -> Out<'py> {
        int(self.0, v)
    }
    fn serialize_u16(self, v: u16) -> Out<'py> {
        int(self.0, v)
    }
    fn serialize_u32(self, v: u32) -> Out<'py> {
        int(self.0, v)
    }
    fn serialize_u64(self, v: u64) -> Out<'py> {
        int(self.0, v)
    }
    fn serialize_u128(self, v: u128) -> Out<'py> {
        int(self.0, v)
    }
    fn serialize_f32(self, v: f32) -> Out<'py> {
        Ok(PyFloat::new(self.0, v.into()).into_any())
    }
    fn serialize_f64(self, v: f64) -> Out<'py> {
        Ok(PyFloat::new(self.0, v).into_any())
    }
    fn serialize_char(self, v: char) -> Out<'py> {
        let mut buf = [0u8; 4];
        Ok(PyString::new(self.0, v.encode_utf8(&mut buf)).into_any())
    }
    fn serialize_str(self, v: &str) -> Out<'py> {
        Ok(PyString::new(self.0, v).into_any())
    }
    fn serialize_bytes(self, v: &[u8]) -> Out<'py> {
        Ok(PyBytes::new(self.0, v).into_any())
    }
    fn serialize_none(self) -> Out<'py> {
        Ok(self.0.None().into_bound(self.0))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Out<'py> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Out<'py> {
        Ok(key(self.0, variant).into_any())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Out<'py> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Out<'py> {
        let d = PyDict::new(self.0);
        d.set_item(key(self.0, variant), value.serialize(self)?)?;
        Ok(d.into_any())
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'py>, Error> {
        Ok(Seq {
            py: self.0,
            items: Vec::with_capacity(len.unwrap_or(0)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Seq<'py>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Seq<'py>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Seq<'py>, Error> {
        let mut s = self.serialize_seq(Some(len))?;
        s.variant = Some(variant);
        Ok(s)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Map<'py>, Error> {
        Ok(Map::new(self.0, None))
    }
    fn serialize_struct(self, _: &'static str, _len: usize) -> Result<Map<'py>, Error> {
        Ok(Map::new(self.0, None))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Map<'py>, Error> {
        Ok(Map::new(self.0, Some(variant)))
    }
}

impl<'py> ser::SerializeSeq for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTuple for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTupleStruct for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeTupleVariant for Seq<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.push(value)
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeMap for Map<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(to_python(self.py, key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error("a map value without a key".into()))?;
        self.dict.set_item(key, to_python(self.py, value)?)?;
        Ok(())
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeStruct for Map<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.dict
            .set_item(key(self.py, name), to_python(self.py, value)?)?;
        Ok(())
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}

impl<'py> ser::SerializeStructVariant for Map<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.dict
            .set_item(key(self.py, name), to_python(self.py, value)?)?;
        Ok(())
    }
    fn end(self) -> Out<'py> {
        self.finish()
    }
}
