# Tensor core: each public header compiles on its own (included twice, to check the
# include guard). Building the object library is the test.
set(nt_core_headers axis.hpp creation.hpp dtype.hpp index.hpp layout.hpp names.hpp nt.hpp print.hpp storage.hpp
    tensor.hpp detail/tensor_base.hpp detail/copy.hpp detail/convert.hpp detail/element_types.hpp)
set(nt_core_header_sources)
foreach(header IN LISTS nt_core_headers)
    string(MAKE_C_IDENTIFIER ${header} stem)
    set(source ${CMAKE_CURRENT_BINARY_DIR}/core_headers/${stem}.cpp)
    file(CONFIGURE OUTPUT ${source} CONTENT "#include \"nt/${header}\"\n#include \"nt/${header}\"\n")
    list(APPEND nt_core_header_sources ${source})
endforeach()
add_library(test_core_headers OBJECT ${nt_core_header_sources})
target_link_libraries(test_core_headers PRIVATE ntensor::ntensor ntensor_build_flags)
