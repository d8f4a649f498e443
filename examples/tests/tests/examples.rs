//! Every example's tests in one binary: each file used to link the whole
//! extension host on its own.

mod clock;
mod hello_py;
mod sandbox;
mod scratchpad;
mod todo;
mod toolchart;
